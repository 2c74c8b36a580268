//! How a hand ends and what it is worth, per scoring scheme (R-SCORE-BASIC, R-FIVES, R-CLASSIC,
//! R-KOZEL, R-PARTNERSHIP, R-PARTNERSHIP-1V1), and when the match is decided.

use crate::rules::{Rules, Scheme};
use crate::state::{End, Outcome, Table};
use crate::tiles::{is_double, mask_pips, tile_id};

const LONE_ZERO: u32 = 1 << tile_id(0, 0);
/// The seats of team 0 and of team 1, as a seat bitmask (partners sit opposite).
pub const TEAM_SEATS: [u8; 2] = [0b0101, 0b1010];

/// Nearest multiple of 5; remainder 1-2 rounds down, 3-4 up (R-FIVES).
pub fn round_to_five(points: i32) -> i32 {
    (points + 2).div_euclid(5) * 5
}

/// R-FIVES: what a play leaving the fives count `count` scores: the count when it is a multiple
/// of 5 (0 scores nothing).
#[inline]
pub fn fives_points(count: i32) -> i32 {
    if count != 0 && count % 5 == 0 {
        count
    } else {
        0
    }
}

/// R-KOZEL-25: a hand holding only 0-0 counts 25.
pub fn kozel_value(hand: u32) -> i32 {
    if hand == LONE_ZERO {
        25
    } else {
        mask_pips(hand)
    }
}

/// What a hand left counts when a hand is scored: its pips, kozel's lone 0-0 25 (R-KOZEL-25).
pub fn held_value(rules: &Rules, hand: u32) -> i32 {
    if rules.scheme == Scheme::Kozel {
        kozel_value(hand)
    } else {
        mask_pips(hand)
    }
}

/// How a finished hand's points are summed from the hands left (R-SCORE-BASIC, R-FIVES,
/// R-PARTNERSHIP, R-PARTNERSHIP-1V1, R-KOZEL), for the side that gets them: the winners, or the
/// losers where the points count against them (kozel).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Tally {
    /// What that side's own hands count: 1 added, -1 taken off, 0 left out.
    pub own: i32,
    /// What every other side's hands count: 1 added, 0 left out.
    pub others: i32,
    /// The sum is rounded to the nearest 5 (R-FIVES).
    pub to_five: bool,
}

pub fn tally(rules: &Rules) -> Tally {
    let (own, others) = match rules.scheme {
        // The others' pips, less the winner's own when blocked (out, it holds none).
        Scheme::Basic | Scheme::Fives => (-1, 1),
        Scheme::P1v1 => (1, 1),
        Scheme::Partnership => (if rules.count_losers { 0 } else { 1 }, 1),
        Scheme::Kozel => (1, 0),
        Scheme::Classic => (0, 0),
    };
    Tally {
        own,
        others,
        to_five: rules.scheme == Scheme::Fives,
    }
}

/// The points the hands left give `side`, as the rules' tally sums them.
fn tallied(t: &Table, side: usize) -> i32 {
    let tally = tally(&t.rules);
    let sum = (0..t.rules.players)
        .map(|seat| {
            let weight = if t.rules.side_of(seat) == side {
                tally.own
            } else {
                tally.others
            };
            weight * held_value(&t.rules, t.hands[seat])
        })
        .sum();
    if tally.to_five {
        round_to_five(sum)
    } else {
        sum
    }
}

fn team_hands(t: &Table, team: usize) -> [u32; 2] {
    [t.hands[team], t.hands[team + 2]]
}

/// Add `points` to `side`'s hand and match score (a hand scores for one side at most, none for
/// `None`) and build the hand's outcome.
fn award(
    t: &mut Table,
    end: End,
    maker: u8,
    winners: u8,
    side: Option<usize>,
    points: i32,
    capicu: bool,
) -> Outcome {
    if let Some(side) = side {
        t.hand_points[side] += points;
        t.scores[side] += points;
    }
    Outcome {
        end,
        winners,
        points: t.hand_points,
        scores: t.scores,
        carry: t.carry,
        maker,
        capicu,
    }
}

/// The hand ends because `seat` played its last tile, `tile`.
pub fn settle_domino(t: &mut Table, seat: u8, tile: u8) -> Outcome {
    let s = seat as usize;
    let me = 1u8 << seat;
    match t.rules.scheme {
        Scheme::Classic => award(t, End::Domino, seat, me, None, 0, false),
        Scheme::Basic | Scheme::Fives | Scheme::P1v1 => {
            let points = tallied(t, s);
            award(t, End::Domino, seat, me, Some(s), points, false)
        }
        Scheme::Kozel => {
            let team = s % 2;
            let losers = 1 - team;
            let points = tallied(t, losers) + t.carry;
            t.carry = 0;
            award(
                t,
                End::Domino,
                seat,
                TEAM_SEATS[team],
                Some(losers),
                points,
                false,
            )
        }
        Scheme::Partnership => {
            let team = s % 2;
            let mut points = tallied(t, team);
            let capicu = is_capicu(t, tile);
            if capicu {
                points += t.rules.capicu_bonus;
            }
            award(
                t,
                End::Domino,
                seat,
                TEAM_SEATS[team],
                Some(team),
                points,
                capicu,
            )
        }
    }
}

/// Whether the last tile, just laid, made a capicú (R-DETAIL): not a double, it fitted both open
/// ends, which showed different numbers. Once laid, both ends show the same number, the one of
/// its halves it was not laid against; no other last tile leaves them so.
fn is_capicu(t: &Table, tile: u8) -> bool {
    t.n_ends == 2 && !is_double(tile) && t.ends[0] == t.ends[1]
}

/// The hand is blocked: every seat passed in turn (R-BLOCK-PASSES).
pub fn settle_block(t: &mut Table) -> Outcome {
    // The passes went round the table, back to the seat that played last.
    let maker = t.to_move;
    if t.rules.teams {
        return settle_team_block(t, maker);
    }
    let n = t.rules.players;
    let mut pips = [0i32; 4];
    for (s, p) in pips.iter_mut().enumerate().take(n) {
        *p = mask_pips(t.hands[s]);
    }
    let low = *pips[..n].iter().min().expect("2 to 4 seats");
    let lowest: u8 = (0..n)
        .filter(|&s| pips[s] == low)
        .fold(0, |m, s| m | 1 << s);
    if t.rules.scheme == Scheme::Classic {
        return award(t, End::Blocked, maker, lowest, None, 0, false);
    }
    if lowest.count_ones() > 1 {
        return award(t, End::Blocked, maker, 0, None, 0, false);
    }
    let winner = lowest.trailing_zeros() as usize;
    let won = tallied(t, winner);
    award(t, End::Blocked, maker, lowest, Some(winner), won, false)
}

fn settle_team_block(t: &mut Table, maker: u8) -> Outcome {
    if t.rules.scheme == Scheme::Kozel {
        let sums = [0, 1].map(|team| {
            team_hands(t, team)
                .iter()
                .map(|&h| kozel_value(h))
                .sum::<i32>()
        });
        if sums[0] == sums[1] {
            t.carry += sums[0]; // eggs: carried to the next hand's losers
            return award(t, End::Blocked, maker, 0, None, 0, false);
        }
        let losers = if sums[0] > sums[1] { 0 } else { 1 };
        let points = tallied(t, losers) + t.carry;
        t.carry = 0;
        return award(
            t,
            End::Blocked,
            maker,
            TEAM_SEATS[1 - losers],
            Some(losers),
            points,
            false,
        );
    }
    let team = if t.rules.fish_maker {
        maker as usize % 2
    } else {
        let p = [0, 1].map(|team| {
            let [a, b] = team_hands(t, team);
            mask_pips(a | b)
        });
        if p[0] == p[1] {
            return award(t, End::Blocked, maker, 0, None, 0, false);
        }
        if p[0] < p[1] {
            0
        } else {
            1
        }
    };
    let points = tallied(t, team);
    award(
        t,
        End::Blocked,
        maker,
        TEAM_SEATS[team],
        Some(team),
        points,
        false,
    )
}

/// R-TARGET: a fives score reached the target mid-hand; the scorer alone wins, nothing more is
/// scored (the fives points were already added).
pub fn settle_target(t: &Table, seat: u8) -> Outcome {
    Outcome {
        end: End::Target,
        winners: 1 << seat,
        points: t.hand_points,
        scores: t.scores,
        carry: 0,
        maker: seat,
        capicu: false,
    }
}

/// The match's winning seats (a bitmask) once it is decided.
pub fn match_winners(t: &Table, last: &Outcome) -> Option<u8> {
    if t.rules.scheme == Scheme::Classic {
        return Some(last.winners);
    }
    let sides = t.rules.sides();
    let target = t.rules.target;
    let scores = &t.scores[..sides];
    if scores.iter().all(|&s| s < target) {
        return None;
    }
    if t.rules.scheme.points_against() {
        // The team that reached the target has lost.
        return Some(TEAM_SEATS[if scores[0] >= target { 1 } else { 0 }]);
    }
    let side = scores
        .iter()
        .position(|&s| s >= target)
        .expect("checked above");
    Some(if t.rules.teams {
        TEAM_SEATS[side]
    } else {
        1 << side
    })
}

/// Whether a team match was won "dry" (R-KOZEL, R-PARTNERSHIP): the side that did not reach
/// the target has 0 (kozel: the winners recorded no points against them, a dry goat; elsewhere
/// the losers scored nothing). None before the match is over and outside team games.
pub fn won_dry(t: &Table) -> Option<bool> {
    if !t.rules.teams || !t.match_over {
        return None;
    }
    let reached = if t.scores[0] >= t.rules.target { 0 } else { 1 };
    Some(t.scores[1 - reached] == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;
    use crate::tiles::{id, mask};

    /// A hand of `variant` dealt as written, seat 0 leading, the match's scores `scores`.
    fn table(variant: &str, hands: &[&str], scores: [i32; 4]) -> Table {
        let mut t = Table::new(presets::rules(variant, hands.len()));
        t.scores = scores;
        let masks: Vec<u32> = hands.iter().map(|h| mask(h)).collect();
        t.start_hand(&masks, &[], 0, -1);
        t
    }

    /// Seat 0 leads `tile`; everyone else passes until the hand is over.
    fn lead_then_pass(t: &mut Table, tile: &str) -> Outcome {
        t.play(id(tile) << 2);
        while !t.hand_over {
            assert_eq!(t.playable(t.to_move), 0);
            t.pass_turn();
        }
        t.outcome.expect("the hand is over")
    }

    /// R-FIVES: nearest multiple of 5, remainders 1-2 down, 3-4 up; a count scores only as a
    /// nonzero multiple of 5.
    #[test]
    fn r_fives_rounding_and_counts() {
        let rounded: Vec<i32> = (0..=9).map(round_to_five).collect();
        assert_eq!(rounded, [0, 0, 0, 5, 5, 5, 5, 5, 10, 10]);
        let scored: Vec<i32> = [0, 3, 5, 10, 12, 15, 20].map(fives_points).to_vec();
        assert_eq!(scored, [0, 0, 5, 10, 0, 15, 20]);
    }

    /// R-KOZEL-25: a hand holding only 0-0 counts 25; 0-0 with another tile counts its pips.
    #[test]
    fn r_kozel_25_the_lone_double_blank() {
        assert_eq!(kozel_value(mask("0-0")), 25);
        assert_eq!(kozel_value(mask("0-0 1-2")), 3);
        assert_eq!(kozel_value(0), 0);
    }

    /// How each scheme sums a finished hand's points from the hands left (R-SCORE-BASIC,
    /// R-FIVES, R-PARTNERSHIP, R-PARTNERSHIP-1V1, R-KOZEL; classic scores nothing).
    #[test]
    fn each_scheme_tallies_the_hands_left_as_its_rule_says() {
        let of = |name: &str, players: usize| {
            let t = tally(&presets::rules(name, players));
            (t.own, t.others, t.to_five)
        };
        assert_eq!(of("draw", 3), (-1, 1, false));
        assert_eq!(of("block", 2), (-1, 1, false));
        assert_eq!(of("fives", 2), (-1, 1, true));
        assert_eq!(of("allfives", 4), (-1, 1, true));
        assert_eq!(of("partnership-1v1", 2), (1, 1, false));
        assert_eq!(of("partnership", 4), (1, 1, false));
        assert_eq!(of("kozel", 4), (1, 0, false));
        assert_eq!(of("classic", 2), (0, 0, false));
        let mut losers = presets::rules("partnership", 4);
        losers.count_losers = true;
        assert_eq!(tally(&losers).own, 0);
        let kozel = presets::rules("kozel", 4);
        assert_eq!(held_value(&kozel, mask("0-0")), 25);
        assert_eq!(held_value(&presets::rules("draw", 2), mask("0-0")), 0);
    }

    /// R-SCORE-BASIC: going out scores every pip left in hand; a block scores the lowest hand
    /// the others' pips less its own, a tie for lowest scores nobody.
    #[test]
    fn r_score_basic_domino_and_block() {
        let mut t = table("draw", &["0-0", "3-4 6-6"], [0; 4]);
        t.play(id("0-0") << 2);
        let out = t.outcome.expect("out");
        assert_eq!(
            (out.end, out.winners, out.points[..2].to_vec()),
            (End::Domino, 1, vec![19, 0])
        );
        let mut block = table("block", &["6-6 1-1", "1-2 3-4"], [0; 4]);
        let blocked = lead_then_pass(&mut block, "6-6");
        assert_eq!(
            (blocked.end, blocked.winners, blocked.points[0]),
            (End::Blocked, 1, 8)
        );
        let mut tie = table("block", &["6-6 1-2", "0-3"], [0; 4]);
        let tied = lead_then_pass(&mut tie, "6-6");
        assert_eq!((tied.winners, tied.points[..2].to_vec()), (0, vec![0, 0]));
        let mut fives = table("fives", &["6-6 1-1", "1-2 3-4"], [0; 4]);
        assert_eq!(lead_then_pass(&mut fives, "6-6").points[0], 10);
    }

    /// R-CLASSIC: one hand decides the match; nothing is scored.
    #[test]
    fn r_classic_one_hand_decides() {
        let mut t = table("classic", &["0-0", "3-4"], [0; 4]);
        t.play(id("0-0") << 2);
        assert!(t.match_over);
        assert_eq!((t.match_winners, t.scores[..2].to_vec()), (1, vec![0, 0]));
    }

    /// R-KOZEL: the team out of tiles wins the hand and the losers record their pips (and the
    /// carry); a blocked tie carries the hand's points to the next losers ("eggs"); the team
    /// reaching 101 loses the match, dry when the winners recorded nothing.
    #[test]
    fn r_kozel_points_against_eggs_and_goats() {
        assert!(Scheme::Kozel.points_against() && !Scheme::Basic.points_against());
        let mut eggs = table("kozel", &["6-6 1-2", "0-3", "2-2", "1-1 0-2"], [0; 4]);
        let tied = lead_then_pass(&mut eggs, "6-6");
        assert_eq!((tied.winners, eggs.carry), (0, 7));
        let mut out = table("kozel", &["0-0", "1-1 2-2", "3-3", "4-4"], [0, 95, 0, 0]);
        out.carry = eggs.carry;
        out.play(id("0-0") << 2);
        let won = out.outcome.expect("out");
        assert_eq!(
            (won.winners, won.points[..2].to_vec()),
            (TEAM_SEATS[0], vec![0, 21])
        );
        assert_eq!((out.carry, out.scores[1]), (0, 116));
        assert!(out.match_over);
        assert_eq!(out.match_winners, TEAM_SEATS[0]);
        assert_eq!(won_dry(&out), Some(true));
    }

    /// R-PARTNERSHIP: the team out scores every pip left (count=losers: the losers' only);
    /// reaching the target wins, dry when the losers have nothing.
    #[test]
    fn r_partnership_the_winners_score() {
        let hands = ["0-0", "1-1 2-2", "3-3", "4-4"];
        let mut t = table("partnership", &hands, [90, 10, 0, 0]);
        t.play(id("0-0") << 2);
        assert_eq!(t.outcome.expect("out").points[..2], [20, 0]);
        assert!(t.match_over && t.match_winners == TEAM_SEATS[0]);
        assert_eq!(won_dry(&t), Some(false));
        let mut losers = table("partnership", &hands, [0; 4]);
        losers.rules.count_losers = true;
        losers.play(id("0-0") << 2);
        assert_eq!(losers.outcome.expect("out").points[0], 14);
        assert_eq!(won_dry(&losers), None);
    }

    /// R-DETAIL: a last tile fitting both ends, which showed different numbers, is a capicú
    /// (and earns the bonus); a last tile fitting one end is not.
    #[test]
    fn r_detail_capicu() {
        let out_with = |last: &str| {
            let hands = [&format!("0-1 {last}") as &str, "1-2 3-3", "4-4", "5-5"];
            let mut t = table("partnership", &hands, [0; 4]);
            t.rules.capicu_bonus = 25;
            t.play(id("0-1") << 2);
            t.play(id("1-2") << 2 | 1);
            t.pass_turn();
            t.pass_turn();
            assert_eq!(t.ends[..2], [0, 2]);
            t.play(id(last) << 2 | t.ends_fitting(id(last)).trailing_zeros() as u8);
            t.outcome.expect("out")
        };
        let capicu = out_with("0-2");
        assert!(capicu.capicu);
        assert_eq!(capicu.points[0], 6 + 8 + 10 + 25);
        let plain = out_with("0-0");
        assert!(!plain.capicu);
        assert_eq!(plain.points[0], 6 + 8 + 10);
    }
}
