//! Perft for dominoes, as shakmaty's `tests/*.perft` are for chess: per variant and player
//! count, a file under core/tests/perft/ holds seeded deals, the number of action sequences of
//! each depth from them, and the outcomes of random play. `cargo test` recomputes every line
//! (tests/test_perft.py does it again through the Python bindings); the files were written once
//! by `cargo test write_perft_files -- --ignored` and change only when a rule changes on purpose.
//!
//! A node is a position after a sequence of actions, a forced draw or pass being one action; a
//! hand over before the depth ends its sequences (they count nothing at that depth). Random play
//! takes its deals from `Mt19937::new(seed)` (Python's `MatchRng(seed)`) and its choices from
//! `Mt19937::new(seed + 1)` (`randrange(len(legal_moves))`), a match starting anew once decided.

use std::fmt::Write;
use std::path::PathBuf;

use crate::action::Kind;
use crate::game::{play_hands, Game};
use crate::rng::{Bits, Mt19937};
use crate::rules::{presets, Rules};
use crate::state::{End, Table};
use crate::tiles::{tile_name, tiles_of};

/// Leaves past this end a file's perft lines (a line is kept only while it counts fewer).
const MAX_NODES: u64 = 50_000;
const SEEDS: [u64; 2] = [1, 2];
const RANDOM_HANDS: u64 = 200;

/// Action sequences of `depth` actions from `game`'s position.
pub fn perft(t: &Table, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if t.hand_over {
        return 0;
    }
    let mut moves = [0u8; 112];
    let n = t.legal_moves(&mut moves);
    if n == 0 {
        let mut child = *t;
        child.step_forced();
        return perft(&child, depth - 1);
    }
    moves[..n]
        .iter()
        .map(|&mv| {
            let mut child = *t;
            child.play(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

fn first_hand(rules: Rules, seed: u64) -> Game {
    let mut game = Game::new(Table::new(rules));
    game.start_next_hand(&mut Mt19937::new(seed));
    game
}

fn deal_lines(t: &Table) -> String {
    let names = |mask: u32| tiles_of(mask).map(tile_name).collect::<Vec<_>>().join(" ");
    let hands: Vec<String> = t.hands[..t.rules.players]
        .iter()
        .map(|&h| names(h))
        .collect();
    let boneyard: Vec<String> = t.boneyard[..t.bone_len as usize]
        .iter()
        .map(|&b| tile_name(b))
        .collect();
    format!(
        "hands {}\nboneyard {}\nleader {}\n",
        hands.join(" | "),
        boneyard.join(" "),
        t.leader
    )
}

/// What random play of `hands` hands from `seed` came to, as the file's lines.
fn random_lines(rules: Rules, seed: u64, hands: u64) -> String {
    let mut picks = Mt19937::new(seed + 1);
    let (mut ends, mut wins, mut points) = ([0u32; 3], [0u32; 4], 0i64);
    let (mut actions, mut draws, mut passes) = (0usize, 0usize, 0usize);
    let pick = |n: usize| picks.randbelow(n as u32) as usize;
    play_hands(rules, hands, &mut Mt19937::new(seed), pick, |game| {
        let outcome = game.t.outcome.expect("the hand is over");
        ends[match outcome.end {
            End::Domino => 0,
            End::Blocked => 1,
            End::Target => 2,
        }] += 1;
        for (seat, w) in wins.iter_mut().enumerate() {
            *w += (outcome.winners >> seat & 1) as u32;
        }
        points += outcome.points[..rules.sides()]
            .iter()
            .map(|&p| p as i64)
            .sum::<i64>();
        actions += game.history.len();
        for kind in game.history.iter().map(|a| a.kind()) {
            draws += (kind == Kind::Draw) as usize;
            passes += (kind == Kind::Pass) as usize;
        }
    });
    let wins: Vec<String> = wins[..rules.players].iter().map(u32::to_string).collect();
    format!(
        "ends domino {} blocked {} target {}\nwins {}\nactions {actions} draws {draws} \
         passes {passes}\npoints {points}\n",
        ends[0],
        ends[1],
        ends[2],
        wins.join(" ")
    )
}

/// The whole file of one variant and player count.
fn perft_file(name: &str, players: usize) -> String {
    let rules = presets::rules(name, players);
    let mut out = format!(
        "# perft of {name}, {players} players (see core/src/perft.rs for what each line counts)\n"
    );
    for seed in SEEDS {
        let game = first_hand(rules, seed);
        write!(out, "\ndeal {seed}\n{}", deal_lines(&game.t)).expect("a String");
        for depth in 1.. {
            let nodes = perft(&game.t, depth);
            if nodes > MAX_NODES || nodes == 0 {
                break;
            }
            writeln!(out, "perft {depth} {nodes}").expect("a String");
        }
    }
    for seed in SEEDS {
        write!(
            out,
            "\nrandom {seed} {RANDOM_HANDS}\n{}",
            random_lines(rules, seed, RANDOM_HANDS)
        )
        .expect("a String");
    }
    out
}

/// Every variant and player count the rule book allows, with its file.
fn files() -> Vec<(String, usize, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    presets::NAMES
        .iter()
        .flat_map(|&name| {
            let dir = dir.clone();
            presets::player_counts(name).map(move |players| {
                (
                    name.to_string(),
                    players,
                    dir.join(format!("{name}-{players}.perft")),
                )
            })
        })
        .collect()
}

#[test]
fn the_perft_files_hold_for_every_variant_and_player_count() {
    let all = files();
    assert_eq!(all.len(), 16);
    for (name, players, path) in all {
        let written =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fresh = perft_file(&name, players);
        for (a, b) in written.lines().zip(fresh.lines()) {
            assert_eq!(a, b, "{}", path.display());
        }
        assert_eq!(
            written.lines().count(),
            fresh.lines().count(),
            "{}",
            path.display()
        );
        assert!(written.lines().filter(|l| l.starts_with("perft ")).count() >= 6);
    }
}

#[test]
#[ignore = "writes the perft files: run once, on purpose, when a rule changes"]
fn write_perft_files() {
    for (name, players, path) in files() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable");
        std::fs::write(&path, perft_file(&name, players)).expect("writable");
    }
}
