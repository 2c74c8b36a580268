//! The pipes to one bot process (domsim.seat.process): a message written and a reply line
//! read, each within a deadline, in few system calls and with the GIL released only while
//! waiting. This is the hot path of an isolated seat: a round trip per decision.

use std::io::ErrorKind;
use std::os::fd::RawFd;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyBrokenPipeError, PyEOFError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::state::PyState;
use crate::view::View;

/// Bytes asked of the kernel by one read.
const CHUNK: usize = 1 << 16;

/// Both ends of a bot's protocol stream: its stdin, written without blocking, and its stdout,
/// read into a buffer that keeps what follows a line for the next one. The descriptors belong
/// to the Python process object; `close` forgets them before it closes its files.
#[pyclass(name = "Pipes", module = "domsim._core")]
pub struct Pipes {
    to_bot: RawFd,
    from_bot: RawFd,
    max_line: usize,
    buffer: Vec<u8>,
    line: Vec<u8>,
    outgoing: Vec<u8>,
}

#[pymethods]
impl Pipes {
    #[new]
    fn new(to_bot: RawFd, from_bot: RawFd, max_line: usize) -> PyResult<Self> {
        for fd in [to_bot, from_bot] {
            set_non_blocking(fd)?;
        }
        Ok(Pipes {
            to_bot,
            from_bot,
            max_line,
            buffer: Vec::with_capacity(CHUNK),
            line: Vec::with_capacity(1024),
            outgoing: Vec::with_capacity(CHUNK),
        })
    }

    /// Write all of `data` within `seconds`: TimeoutError if the bot does not take it,
    /// BrokenPipeError if it has closed its input.
    fn send(&self, py: Python<'_>, data: &[u8], seconds: f64) -> PyResult<()> {
        write_all(py, self.to_bot, data, seconds)
    }

    /// The next line without its newline, or None if none is whole within `seconds` (None: no
    /// limit), even while the bot keeps writing; EOFError once the bot has closed its output,
    /// ValueError for a line longer than `max_line`. With `compact`, a reply `m ID INDEX` of the
    /// compact encoding comes as the pair (ID, INDEX).
    fn read_line<'py>(
        &mut self,
        py: Python<'py>,
        seconds: Option<f64>,
        compact: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let line = self.next_line(py, deadline_after(seconds))?;
        line.map(|end| self.take_line(py, end, compact, None))
            .transpose()
    }

    /// A compact `choose` of the view that the seat to move of `state` has (PlayerView.wire of
    /// it, built in the core: no PlayerView is made), for `table` of a bot that plays several
    /// (None: a bot of one), sent within `send_seconds`; then `read_line(seconds, True)`,
    /// except that the reply `m REQUEST INDEX` to this very request comes as INDEX alone. The
    /// referee's hot path.
    fn ask_state<'py>(
        &mut self,
        py: Python<'py>,
        state: PyRef<'_, PyState>,
        request: u64,
        table: Option<u32>,
        send_seconds: f64,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.outgoing.clear();
        self.queue_state(state, request, table)?;
        self.flush(py, send_seconds)?;
        let line = self.next_line(py, deadline_after(seconds))?;
        line.map(|end| self.take_line(py, end, true, Some(request)))
            .transpose()
    }

    /// Add `ask_state`'s line to what the next `flush` sends, without sending it.
    fn queue_state(
        &mut self,
        state: PyRef<'_, PyState>,
        request: u64,
        table: Option<u32>,
    ) -> PyResult<()> {
        if state.game.t.hand_over {
            return Err(PyValueError::new_err("no hand is in play"));
        }
        let view = View::of(&state.game, state.game.t.legal_vec());
        crate::wire::encode_into(&mut self.line, request, &view);
        queue_line(&mut self.outgoing, &self.line, table);
        Ok(())
    }

    /// Add `data`, a whole line, to what the next `flush` sends (for `table`, as `queue_state`).
    fn queue(&mut self, data: &[u8], table: Option<u32>) {
        queue_line(&mut self.outgoing, data, table);
    }

    /// Send what was queued, in one write when the pipe has room, within `seconds` (as `send`).
    fn flush(&mut self, py: Python<'_>, seconds: f64) -> PyResult<()> {
        let sent = write_all(py, self.to_bot, &self.outgoing, seconds);
        self.outgoing.clear();
        sent
    }

    /// The replies to asks sent together, read in order: each ask `i` waits for a line until
    /// `seconds[i]` (None: no limit) after this call. While every line is the compact reply
    /// `m ID INDEX` to its ask (`requests[i]`), its INDEX joins the first list, and the seconds
    /// from this call to its reading the second. The first line that is anything else is
    /// returned third, for the caller to read (a JSON reply, or a line that answers nothing),
    /// its time last in the second list; the third is None when every ask was answered, or
    /// once an ask's time is up (then the lists are shorter). Errors as `read_line`.
    #[allow(clippy::type_complexity)]
    fn replies<'py>(
        &mut self,
        py: Python<'py>,
        requests: Vec<u64>,
        seconds: Vec<Option<f64>>,
    ) -> PyResult<(Vec<i64>, Vec<f64>, Option<Bound<'py, PyAny>>)> {
        let started = Instant::now();
        let (mut indices, mut times) = (Vec::new(), Vec::new());
        for (&request, &wait) in requests.iter().zip(&seconds) {
            let deadline = wait.map(|s| started + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
            let Some(end) = self.next_line(py, deadline)? else {
                return Ok((indices, times, None));
            };
            match crate::wire::decode_reply(&self.buffer[..end]) {
                Some((id, index)) if id == request => {
                    self.buffer.drain(..=end);
                    indices.push(index);
                    times.push(started.elapsed().as_secs_f64());
                }
                _ => {
                    let line = PyBytes::new(py, &self.buffer[..end]).into_any();
                    self.buffer.drain(..=end);
                    times.push(started.elapsed().as_secs_f64());
                    return Ok((indices, times, Some(line)));
                }
            }
        }
        Ok((indices, times, None))
    }

    /// Forget the descriptors (the process object closes them next): any later call fails
    /// rather than touch a file that may by then be another's.
    fn close(&mut self) {
        self.to_bot = -1;
        self.from_bot = -1;
    }
}

impl Pipes {
    /// Where the next whole line ends in the buffer, reading as needed; None at `deadline`.
    fn next_line(&mut self, py: Python<'_>, deadline: Option<Instant>) -> PyResult<Option<usize>> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&byte| byte == b'\n') {
                let late = deadline.is_some_and(|at| Instant::now() > at);
                return Ok((!late).then_some(end));
            }
            if self.buffer.len() > self.max_line {
                return Err(PyValueError::new_err(format!(
                    "wrote a line longer than {} bytes",
                    self.max_line
                )));
            }
            if !read_some(py, self.from_bot, &mut self.buffer, deadline)? {
                return Ok(None);
            }
        }
    }

    /// The line ending at `end`, out of the buffer: as `read_line` gives it, or the bare index
    /// of a compact reply to `request`.
    fn take_line<'py>(
        &mut self,
        py: Python<'py>,
        end: usize,
        compact: bool,
        request: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let line = &self.buffer[..end];
        let reply = match compact.then(|| crate::wire::decode_reply(line)).flatten() {
            Some((id, index)) if Some(id) == request => index.into_pyobject(py)?.into_any(),
            Some(pair) => pair.into_pyobject(py)?.into_any(),
            None => PyBytes::new(py, line).into_any(),
        };
        self.buffer.drain(..=end);
        Ok(reply)
    }
}

/// `line` after `outgoing`, prefixed with its table's `T TABLE ` when it is for one.
fn queue_line(outgoing: &mut Vec<u8>, line: &[u8], table: Option<u32>) {
    if let Some(table) = table {
        crate::wire::put_table(outgoing, table);
    }
    outgoing.extend_from_slice(line);
}

fn write_all(py: Python<'_>, fd: RawFd, data: &[u8], seconds: f64) -> PyResult<()> {
    let deadline = deadline_after(Some(seconds));
    let mut sent = 0;
    while sent < data.len() {
        let rest = &data[sent..];
        // SAFETY: `rest` is valid for `rest.len()` bytes; a closed or foreign `fd` fails, it
        // cannot corrupt memory.
        let written = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if written >= 0 {
            sent += written as usize;
            continue;
        }
        let error = std::io::Error::last_os_error();
        match error.kind() {
            ErrorKind::WouldBlock => {
                if !wait(py, fd, libc::POLLOUT, deadline)? {
                    return Err(PyTimeoutError::new_err("the bot did not read its input"));
                }
            }
            ErrorKind::Interrupted => py.check_signals()?,
            ErrorKind::BrokenPipe => {
                return Err(PyBrokenPipeError::new_err("the bot closed its input"))
            }
            _ => return Err(error.into()),
        }
    }
    Ok(())
}

/// Append what `fd` has to `buffer`, waiting for it if nothing has come yet: false once
/// `deadline` passes. The reply is usually there already (the bot runs on the same CPU and
/// answered while the request was written), so the read needs no poll.
fn read_some(
    py: Python<'_>,
    fd: RawFd,
    buffer: &mut Vec<u8>,
    deadline: Option<Instant>,
) -> PyResult<bool> {
    buffer.reserve(CHUNK);
    loop {
        let spare = buffer.spare_capacity_mut();
        // SAFETY: `spare` is writable for `spare.len()` bytes, and read(2) writes at most that.
        let count = unsafe { libc::read(fd, spare.as_mut_ptr().cast(), spare.len()) };
        if count > 0 {
            // SAFETY: read(2) initialised `count` bytes past the old length.
            unsafe { buffer.set_len(buffer.len() + count as usize) };
            return Ok(true);
        }
        if count == 0 {
            return Err(PyEOFError::new_err("the bot closed its output"));
        }
        let error = std::io::Error::last_os_error();
        match error.kind() {
            ErrorKind::WouldBlock => {
                if !wait(py, fd, libc::POLLIN, deadline)? {
                    return Ok(false);
                }
            }
            ErrorKind::Interrupted => py.check_signals()?,
            _ => return Err(error.into()),
        }
    }
}

/// Wait, the GIL released, until `fd` is ready for `events`: false once `deadline` passes.
/// Python's signal handlers run when a signal interrupts the wait (as PEP 475 has it).
fn wait(
    py: Python<'_>,
    fd: RawFd,
    events: libc::c_short,
    deadline: Option<Instant>,
) -> PyResult<bool> {
    loop {
        let Some(timeout) = poll_timeout(deadline) else {
            return Ok(false);
        };
        let mut entry = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd, and poll(2) writes only its `revents`.
        let ready = py.detach(|| unsafe { libc::poll(&mut entry, 1, timeout) });
        if ready >= 0 {
            return Ok(ready > 0);
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != ErrorKind::Interrupted {
            return Err(error.into());
        }
        py.check_signals()?;
    }
}

fn deadline_after(seconds: Option<f64>) -> Option<Instant> {
    seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)))
}

/// Milliseconds to `deadline` for poll(2), rounded up (-1: no deadline); None once it passed.
fn poll_timeout(deadline: Option<Instant>) -> Option<i32> {
    let Some(at) = deadline else {
        return Some(-1);
    };
    let left = at.saturating_duration_since(Instant::now());
    (!left.is_zero()).then(|| left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32)
}

fn set_non_blocking(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl(2) on a descriptor number only reads and sets its flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
