//! An action of a hand's history: a play, a draw or a pass, packed in a `u32` as the engine, the
//! search and Python's `domsim.engine.Action` exchange it:
//! `kind | seat << 2 | tile << 4 | end << 9 | open << 11`, where `open` (draws and passes) is the
//! bitmask of the numbers the ends showed. `Action` is that `u32` and nothing more: the core
//! keeps histories as `Action`s and reads them through its accessors; bits become an `Action`
//! only through `from_bits` (at the Python boundary, `crate::py::action`, and on the wire).

/// What an action does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Play = 0,
    Draw = 1,
    Pass = 2,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(transparent)]
pub struct Action(u32);

impl Action {
    /// `seat` laid `tile` on `end` (a lead: 0 as written, 1 flipped).
    #[inline]
    pub const fn play(seat: u8, tile: u8, end: u8) -> Action {
        Action((seat as u32) << 2 | (tile as u32) << 4 | (end as u32) << 9)
    }

    /// `seat` drew `tile` while the ends showed the numbers `open`.
    #[inline]
    pub const fn draw(seat: u8, tile: u8, open: u8) -> Action {
        Action(Kind::Draw as u32 | (seat as u32) << 2 | (tile as u32) << 4 | (open as u32) << 11)
    }

    /// `seat` passed while the ends showed the numbers `open`.
    #[inline]
    pub const fn pass(seat: u8, open: u8) -> Action {
        Action(Kind::Pass as u32 | (seat as u32) << 2 | (open as u32) << 11)
    }

    /// The action these bits encode, or None for bits no action has (kind 3, a seat of 4 or
    /// more players, a tile id past 27, bits past the open numbers).
    pub fn from_bits(bits: u32) -> Option<Action> {
        let a = Action(bits);
        let valid = bits & 3 != 3 && a.tile() < 28 && bits >> 18 == 0;
        valid.then_some(a)
    }

    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    #[inline]
    pub const fn kind(self) -> Kind {
        match self.0 & 3 {
            0 => Kind::Play,
            1 => Kind::Draw,
            _ => Kind::Pass,
        }
    }

    #[inline]
    pub const fn is_play(self) -> bool {
        self.0 & 3 == Kind::Play as u32
    }

    #[inline]
    pub const fn seat(self) -> u8 {
        (self.0 >> 2 & 3) as u8
    }

    /// The tile played or drawn (0 for a pass, and for a draw as the other seats see it).
    #[inline]
    pub const fn tile(self) -> u8 {
        (self.0 >> 4 & 31) as u8
    }

    #[inline]
    pub const fn end(self) -> u8 {
        (self.0 >> 9 & 3) as u8
    }

    /// The play as a move, `tile << 2 | end`.
    #[inline]
    pub const fn mv(self) -> u8 {
        self.tile() << 2 | self.end()
    }

    /// For a draw or pass: the numbers the open ends showed.
    #[inline]
    pub const fn open_numbers(self) -> u8 {
        (self.0 >> 11) as u8
    }

    /// The action as every seat sees it: a draw without the tile drawn.
    #[inline]
    pub const fn public(self) -> Action {
        match self.kind() {
            Kind::Draw => Action(self.0 & !(31 << 4)),
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accessors_read_back_what_was_encoded() {
        for seat in 0..4 {
            for tile in 0..28 {
                let p = Action::play(seat, tile, 3);
                assert_eq!(
                    (p.kind(), p.seat(), p.tile(), p.end()),
                    (Kind::Play, seat, tile, 3)
                );
                assert_eq!(p.mv(), tile << 2 | 3);
                let d = Action::draw(seat, tile, 0b101_0011);
                assert_eq!((d.kind(), d.seat(), d.tile()), (Kind::Draw, seat, tile));
                assert_eq!(d.open_numbers(), 0b101_0011);
                assert_eq!(d.public(), Action::draw(seat, 0, 0b101_0011));
                assert_eq!(p.public(), p);
            }
            let pass = Action::pass(seat, 0b100_0000);
            assert_eq!(
                (pass.kind(), pass.seat(), pass.open_numbers()),
                (Kind::Pass, seat, 64)
            );
        }
    }

    #[test]
    fn from_bits_refuses_what_no_action_holds() {
        assert_eq!(
            Action::from_bits(Action::play(2, 27, 1).bits()),
            Some(Action::play(2, 27, 1))
        );
        assert_eq!(Action::from_bits(3), None);
        assert_eq!(Action::from_bits(28 << 4), None);
        assert_eq!(Action::from_bits(1 << 18), None);
    }

    #[test]
    fn an_action_is_a_bare_u32() {
        assert_eq!(std::mem::size_of::<Action>(), 4);
        assert_eq!(std::mem::size_of::<Option<Action>>(), 8);
    }
}
