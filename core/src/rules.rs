//! What the engine needs of a rule set, read once from Python's `Rules` (the variant presets and
//! option validation stay in `domsim.rules`; this is their compiled form).

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scheme {
    Basic,
    Fives,
    Classic,
    Kozel,
    Partnership,
    P1v1,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FirstLead {
    HighestDouble,
    LowestFromOne,
    OneOne,
    SixSix,
    Lot,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    pub players: usize,
    pub hand_size: usize,
    pub target: i32,
    pub draws: bool,
    pub scheme: Scheme,
    pub first_lead: FirstLead,
    /// Later hands are led by the seat that went out or made the fish (else: the winner).
    pub lead_out_or_fish: bool,
    pub spinner: bool,
    pub teams: bool,
    pub capicu_bonus: i32,
    pub count_losers: bool,
    pub fish_maker: bool,
    pub lead_fid: bool,
}

impl Scheme {
    pub fn parse(name: &str) -> Result<Self, String> {
        Ok(match name {
            "basic" => Scheme::Basic,
            "fives" => Scheme::Fives,
            "classic" => Scheme::Classic,
            "kozel" => Scheme::Kozel,
            "partnership" => Scheme::Partnership,
            "p1v1" => Scheme::P1v1,
            other => return Err(format!("unknown scoring scheme {other:?}")),
        })
    }
}

impl Scheme {
    /// R-KOZEL: the points a hand awards count against the side that gets them (the losers
    /// record their pips), and the side that reaches the target loses the match.
    pub fn points_against(self) -> bool {
        self == Scheme::Kozel
    }

    /// R-FIVES-COUNT: a play scores the count of the open ends when it is a positive multiple
    /// of 5.
    pub fn scores_count(self) -> bool {
        self == Scheme::Fives
    }
}

impl FirstLead {
    pub fn parse(name: &str) -> Result<Self, String> {
        Ok(match name {
            "highest_double" => FirstLead::HighestDouble,
            "lowest_from_1" => FirstLead::LowestFromOne,
            "1-1" => FirstLead::OneOne,
            "6-6" => FirstLead::SixSix,
            "lot" => FirstLead::Lot,
            other => return Err(format!("unknown first lead {other:?}")),
        })
    }
}

impl Rules {
    /// Number of scoring sides: teams in team games, else seats.
    pub fn sides(&self) -> usize {
        if self.teams {
            2
        } else {
            self.players
        }
    }

    pub fn side_of(&self, seat: usize) -> usize {
        if self.teams {
            seat % 2
        } else {
            seat
        }
    }

    /// Whether the first hand's leader is drawn by lot (and leads any tile).
    pub fn by_lot(&self) -> bool {
        self.first_lead == FirstLead::Lot || self.lead_fid
    }

    /// R-FIVES-COUNT: whether plays score the count (`Scheme::scores_count`).
    pub fn fives(&self) -> bool {
        self.scheme.scores_count()
    }

    /// Checks what Python's `make_rules` guarantees, so a hand-made `Rules` cannot index out of
    /// the engine's fixed-size tables.
    pub fn validate(&self) -> Result<(), String> {
        if !(2..=4).contains(&self.players) {
            return Err(format!("{} players: the engine seats 2 to 4", self.players));
        }
        if self.hand_size == 0 || self.hand_size * self.players > 28 {
            return Err(format!(
                "{} tiles for {} players do not fit the set",
                self.hand_size, self.players
            ));
        }
        if self.teams && self.players != 4 {
            return Err("team games are played by 4".into());
        }
        Ok(())
    }
}

#[cfg(test)]
pub mod presets {
    //! The variants as `domsim.rules` defines them, for the Rust tests.
    use super::*;

    pub fn rules(name: &str, players: usize) -> Rules {
        let small = if players == 2 { 7 } else { 5 };
        let base = Rules {
            players,
            hand_size: small,
            target: 100,
            draws: true,
            scheme: Scheme::Basic,
            first_lead: FirstLead::HighestDouble,
            lead_out_or_fish: false,
            spinner: false,
            teams: false,
            capicu_bonus: 0,
            count_losers: false,
            fish_maker: false,
            lead_fid: false,
        };
        let team = Rules {
            hand_size: 7,
            draws: false,
            lead_out_or_fish: true,
            teams: true,
            ..base
        };
        match name {
            "draw" => base,
            "block" => Rules {
                hand_size: 7,
                draws: false,
                ..base
            },
            "fives" => Rules {
                target: 150,
                scheme: Scheme::Fives,
                ..base
            },
            "allfives" => Rules {
                target: 150,
                scheme: Scheme::Fives,
                spinner: true,
                ..base
            },
            "classic" => Rules {
                target: 0,
                scheme: Scheme::Classic,
                first_lead: FirstLead::LowestFromOne,
                ..base
            },
            "kozel" => Rules {
                target: 101,
                scheme: Scheme::Kozel,
                first_lead: FirstLead::OneOne,
                ..team
            },
            "partnership" => Rules {
                scheme: Scheme::Partnership,
                first_lead: FirstLead::SixSix,
                ..team
            },
            "partnership-1v1" => Rules {
                scheme: Scheme::P1v1,
                first_lead: FirstLead::Lot,
                lead_out_or_fish: true,
                ..base
            },
            other => panic!("no preset {other}"),
        }
    }

    pub const NAMES: [&str; 8] = [
        "draw",
        "block",
        "fives",
        "allfives",
        "classic",
        "kozel",
        "partnership",
        "partnership-1v1",
    ];

    /// The player counts the rule book allows a variant.
    pub fn player_counts(name: &str) -> std::ops::RangeInclusive<usize> {
        match name {
            "fives" | "partnership-1v1" => 2..=2,
            "kozel" | "partnership" => 4..=4,
            _ => 2..=4,
        }
    }

    /// Every (variant, players) the rule book allows.
    pub fn all() -> Vec<Rules> {
        NAMES
            .iter()
            .flat_map(|&name| player_counts(name).map(move |players| rules(name, players)))
            .collect()
    }
}
