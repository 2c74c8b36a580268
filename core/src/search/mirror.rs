//! Moves that leave mirror images of one position: with two open ends showing the same number
//! and counting alike, and no spinner, a tile laid on either end leaves the same line seen from
//! its other side, which the rules treat alike (they read the open ends only, R-END,
//! R-FIVES-COUNT). The search may value one of the two (`Settings::merge_mirrors`). They are not
//! alike to insane's playouts, which break ties on the first end: replayed with an independent
//! 2,048-deal valuation, the end the full search picks is worth 0.04 pips more in block and
//! about 0.3 in kozel and partnership-1v1 where the two searches differ.

use crate::state::Table;

/// The positions in `moves` of the moves worth valuing at `t`: every move but one laid on end 1
/// whose tile is also legal on end 0 when the two ends are mirror images.
pub fn distinct_moves(t: &Table, moves: &[u8]) -> Vec<usize> {
    let mirrored = !t.rules.spinner
        && t.n_ends == 2
        && t.ends[0] == t.ends[1]
        && t.end_counts[0] == t.end_counts[1];
    (0..moves.len())
        .filter(|&i| {
            let (tile, end) = (moves[i] >> 2, moves[i] & 3);
            !(mirrored && end == 1 && moves.contains(&(tile << 2)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;
    use crate::tiles::tile_id;

    /// Block, 2 players: after a lead of 3-3 both ends show 3; seat 0's 3-5 and 3-6 each fit
    /// both, 0-0 neither. After 3-5 on one end the ends show 5 and 3: no mirror any more.
    #[test]
    fn a_tile_on_either_of_two_like_ends_is_valued_once() {
        let mut t = Table::new(presets::rules("block", 2));
        let hand = |tiles: &[(u8, u8)]| tiles.iter().fold(0, |m, &(a, b)| m | 1 << tile_id(a, b));
        t.start_hand(
            &[
                hand(&[(3, 5), (3, 6), (0, 0)]),
                hand(&[(3, 3), (5, 6), (1, 2)]),
            ],
            &[],
            1,
            -1,
        );
        t.play(tile_id(3, 3) << 2);
        let moves = t.legal_vec();
        assert_eq!(moves.len(), 4);
        let kept: Vec<u8> = distinct_moves(&t, &moves)
            .iter()
            .map(|&i| moves[i])
            .collect();
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|mv| mv & 3 == 0));
        t.play(tile_id(3, 5) << 2);
        t.play(tile_id(5, 6) << 2);
        let moves = t.legal_vec();
        assert_eq!(distinct_moves(&t, &moves).len(), moves.len());
    }
}
