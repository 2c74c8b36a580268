//! The compact `choose` line of the seat protocol (docs/seat-protocol.md, "The compact
//! encoding"): one view as ASCII integers, for domsim's own seat host. JSON costs both ends
//! tens of microseconds a decision; this costs about one.
//!
//! `c ID SEAT HAND N_ENDS E0..E3 C0..C3 H0..H3 BONEYARD CAN_DRAW S0..S3 CARRY HAND_NUMBER LEADER
//! SPINNER N_LEGAL LEGAL... N_ACTIONS ACTIONS...`: HAND a tile mask, ends, end counts, hand
//! counts and scores always four (unused ones 0), SPINNER -1 for none, moves `tile << 2 | end`,
//! actions the engine's public encoding. The host answers `m ID INDEX`, INDEX the move's place
//! among the legal ones.

use crate::action::Action;
use crate::rules::Rules;
use crate::view::View;

/// The line for `view`, asked as request `request`, with its newline.
pub fn encode(request: u64, view: &View) -> Vec<u8> {
    let mut out = Vec::with_capacity(160 + 8 * view.actions.len());
    encode_into(&mut out, request, view);
    out
}

/// `encode` into `out`, emptied first (a buffer kept across requests allocates nothing).
pub fn encode_into(out: &mut Vec<u8>, request: u64, view: &View) {
    out.clear();
    out.push(b'c');
    let mut put = |value: i64| put_int(out, value);
    put(request as i64);
    put(view.seat.into());
    put(view.hand.into());
    put(view.n_ends.into());
    view.ends.iter().for_each(|&e| put(e.into()));
    view.end_counts.iter().for_each(|&c| put(c.into()));
    view.hand_counts.iter().for_each(|&c| put(c.into()));
    put(view.boneyard_count.into());
    put(view.can_draw.into());
    view.scores.iter().for_each(|&s| put(s.into()));
    put(view.carry.into());
    put(view.hand_number.into());
    put(view.leader.into());
    put(view.spinner.into());
    put(view.legal.len() as i64);
    view.legal.iter().for_each(|&m| put(m.into()));
    put(view.actions.len() as i64);
    view.actions.iter().for_each(|a| put(a.bits().into()));
    out.push(b'\n');
}

/// The prefix `T TABLE ` that names which of a bot's tables a line is for (docs/seat-protocol.md,
/// "Tables").
pub fn put_table(out: &mut Vec<u8>, table: u32) {
    out.push(b'T');
    put_int(out, table.into());
    out.push(b' ');
}

/// A space and `value` in decimal (a line holds about forty: `write!` would cost most of it).
fn put_int(out: &mut Vec<u8>, value: i64) {
    out.push(b' ');
    if value < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = value.unsigned_abs();
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

/// The request id and the view of a compact line (its newline optional) under `rules`; an
/// error names what is wrong. The view is as sent, not checked as a view (see the bindings).
pub fn decode(line: &[u8], rules: Rules) -> Result<(u64, View), String> {
    let mut words = line
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty());
    if words.next() != Some(b"c") {
        return Err("a compact view starts with `c`".into());
    }
    let mut next = |what: &str| -> Result<i64, String> {
        let word = words.next().ok_or_else(|| format!("ends before {what}"))?;
        parse_int(word).ok_or_else(|| {
            let word = String::from_utf8_lossy(word);
            format!("{what} is not an integer: {word:?}")
        })
    };
    let request = u64::try_from(next("the id")?).map_err(|_| "a negative id")?;
    let seat = small(next("the seat")?, "the seat")?;
    let hand = u32::try_from(next("the hand")?).map_err(|_| "the hand is not a tile mask")?;
    let n_ends = small(next("the number of ends")?, "the number of ends")?;
    let mut ends = [0u8; 4];
    for e in &mut ends {
        *e = small(next("an end")?, "an end")?;
    }
    let mut end_counts = [0i32; 4];
    for c in &mut end_counts {
        *c = int(next("an end count")?, "an end count")?;
    }
    let mut hand_counts = [0u8; 4];
    for c in &mut hand_counts {
        *c = small(next("a hand count")?, "a hand count")?;
    }
    let boneyard_count = small(next("the boneyard count")?, "the boneyard count")?;
    let can_draw = match next("can_draw")? {
        0 => false,
        1 => true,
        _ => return Err("can_draw is 0 or 1".into()),
    };
    let mut scores = [0i32; 4];
    for s in &mut scores {
        *s = int(next("a score")?, "a score")?;
    }
    let carry = int(next("the carry")?, "the carry")?;
    let hand_number = int(next("the hand number")?, "the hand number")?;
    let leader = small(next("the leader")?, "the leader")?;
    let spinner = i8::try_from(next("the spinner")?).map_err(|_| "the spinner is -1..6")?;
    let n_legal = bounded(next("the number of moves")?, 28 * 4, "the number of moves")?;
    let legal = (0..n_legal)
        .map(|_| small(next("a move")?, "a move"))
        .collect::<Result<Vec<_>, _>>()?;
    let n_actions = bounded(next("the number of actions")?, 256, "the number of actions")?;
    let actions = (0..n_actions)
        .map(|_| action(next("an action")?))
        .collect::<Result<Vec<_>, String>>()?;
    if words.next().is_some() {
        return Err("more numbers than a view holds".into());
    }
    let view = View {
        rules,
        seat,
        hand,
        ends,
        n_ends,
        end_counts,
        hand_counts,
        boneyard_count,
        can_draw,
        scores,
        carry,
        hand_number,
        leader,
        spinner,
        legal,
        actions,
    };
    Ok((request, view))
}

/// (ID, INDEX) of a reply `m ID INDEX` (its newline optional); None for any other line.
pub fn decode_reply(line: &[u8]) -> Option<(u64, i64)> {
    let mut words = std::str::from_utf8(line).ok()?.split_ascii_whitespace();
    if words.next() != Some("m") {
        return None;
    }
    let request = words.next()?.parse().ok()?;
    let index = words.next()?.parse().ok()?;
    words.next().is_none().then_some((request, index))
}

/// A decimal integer, `-` before it if negative, as the line has it (str::parse would first
/// check the whole line is UTF-8, and costs most of a decode).
fn parse_int(word: &[u8]) -> Option<i64> {
    let (negative, digits) = match word {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, word),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &digit in digits {
        if !digit.is_ascii_digit() {
            return None;
        }
        value = value * 10 + i64::from(digit - b'0');
    }
    Some(if negative { -value } else { value })
}

fn action(value: i64) -> Result<Action, String> {
    u32::try_from(value)
        .ok()
        .and_then(Action::from_bits)
        .ok_or_else(|| format!("{value} is not an action of the engine's encoding"))
}

fn small(value: i64, what: &str) -> Result<u8, String> {
    u8::try_from(value).map_err(|_| format!("{what} is out of range: {value}"))
}

fn int(value: i64, what: &str) -> Result<i32, String> {
    i32::try_from(value).map_err(|_| format!("{what} is out of range: {value}"))
}

fn bounded(value: i64, most: i64, what: &str) -> Result<usize, String> {
    if (0..=most).contains(&value) {
        Ok(value as usize)
    } else {
        Err(format!("{what} is out of range: {value}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets;
    use crate::view::tests::random_decisions;

    /// Every field of every decision of random games survives the line.
    #[test]
    fn a_view_survives_its_line() {
        let mut checked = 0;
        random_decisions(9, 1, 4, |game, view| {
            let line = encode(7, view);
            assert_eq!(decode(&line, game.t.rules), Ok((7, view.clone())));
            checked += 1;
        });
        assert!(checked > 100);
    }

    #[test]
    fn numbers_go_in_decimal_both_ways() {
        for value in [0, 7, -1, 10, 99, -100, 1 << 40, i64::MAX, i64::MIN] {
            let mut out = vec![];
            put_int(&mut out, value);
            assert_eq!(out, format!(" {value}").into_bytes());
        }
        for (word, value) in [
            ("0", Some(0)),
            ("-12", Some(-12)),
            ("+1", None),
            ("1x", None),
        ] {
            assert_eq!(parse_int(word.as_bytes()), value, "{word}");
        }
        assert_eq!(parse_int(b"-"), None);
        assert_eq!(
            parse_int(b"999999999999999999"),
            Some(999_999_999_999_999_999)
        );
        assert_eq!(parse_int(b"9999999999999999999"), None); // past what a view holds
    }

    #[test]
    fn a_reply_names_its_request_and_move() {
        assert_eq!(decode_reply(b"m 7 2"), Some((7, 2)));
        assert_eq!(decode_reply(b"m 7 -1\n"), Some((7, -1)));
        for other in [
            &b"m 7"[..],
            b"m 7 2 3",
            b"m x 2",
            b"{\"type\":\"move\"}",
            b"",
            b"m -7 2",
        ] {
            assert_eq!(decode_reply(other), None, "{other:?}");
        }
    }

    #[test]
    fn a_bad_line_is_refused_with_a_reason() {
        assert!(decode(b"x 1", presets::all()[0])
            .unwrap_err()
            .contains("starts with"));
        assert!(decode(b"c 1 0", presets::all()[0])
            .unwrap_err()
            .contains("ends before"));
        assert!(decode(b"c 1 999", presets::all()[0])
            .unwrap_err()
            .contains("out of range"));
        assert!(decode(b"c -1", presets::all()[0])
            .unwrap_err()
            .contains("negative"));
        assert!(decode("c 1 é".as_bytes(), presets::all()[0])
            .unwrap_err()
            .contains("not an integer"));
    }
}
