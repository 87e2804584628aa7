//! Every page's event stream (server-sent events), written by one thread.
//!
//! A stream is opened by a request worker, which writes its head and hands
//! its socket here; from then on the game's events and a keep-alive comment
//! every [`KEEPALIVE`] are written by the one streams thread. A write that
//! fails (the page went) or stalls (for [`STALL`]) closes the stream, and
//! with it the page's [`Subscription`]: when a game's last page goes, its
//! analysis stops. At most [`limits::STREAMS`] are open at once.

use super::error::ApiError;
use super::game::{GuiGame, Subscription};
use super::limits::{self, Slot, Slots};
use std::collections::HashMap;
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A comment sent on quiet streams, so that a closed page is noticed within
/// seconds (its analysis then stops).
const KEEPALIVE: Duration = Duration::from_secs(2);
/// How long one write may block before its page counts as gone (it
/// reconnects by itself and gets the whole state again).
const STALL: Duration = Duration::from_secs(2);
/// The head of every stream; `retry` is how soon a page reconnects.
const HEAD: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\nX-Accel-Buffering: no\r\n\r\nretry: 2000\n\n";

/// What the streams thread is told.
enum Message {
    /// A stream whose head is written: its socket and its slot.
    Open(u64, Box<OpenStream>),
    /// The page's subscription, once it subscribed (after `Open`).
    Attach(u64, Subscription),
    /// An event for one stream, ready to write.
    Event(u64, Arc<str>),
}

/// One open stream, as the streams thread keeps it.
struct OpenStream {
    socket: TcpStream,
    /// Cleared when the stream closes, so that the game drops its sink.
    alive: Arc<AtomicBool>,
    /// Dropped with the stream: the page no longer listens.
    subscription: Option<Subscription>,
    _slot: Slot,
}

impl OpenStream {
    /// Writes `text`; false when the page is gone or stalled.
    fn write(&mut self, text: &str) -> bool {
        self.socket
            .write_all(text.as_bytes())
            .and_then(|()| self.socket.flush())
            .is_ok()
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.alive.store(false, Ordering::Release);
    }
}

/// The event streams of every page, and the thread that writes them.
pub struct Streams {
    /// To the streams thread; a `Mutex` because the workers share it.
    to_thread: Mutex<Sender<Message>>,
    slots: Slots,
    ids: AtomicU64,
}

impl Streams {
    /// Starts the streams thread.
    pub fn start() -> std::io::Result<Streams> {
        let (to_thread, inbox) = channel();
        thread::Builder::new()
            .name("gui-streams".into())
            .spawn(move || run(&inbox))?;
        Ok(Streams {
            to_thread: Mutex::new(to_thread),
            slots: Slots::new(limits::STREAMS),
            ids: AtomicU64::new(0),
        })
    }

    /// A place for one more stream, or the `503` that says there is none.
    pub fn reserve(&self) -> Result<Slot, ApiError> {
        (self.slots.take()).ok_or_else(|| ApiError::TooManyStreams(self.slots.max()))
    }

    /// Streams `session`'s events on `socket` from now on: the head, the
    /// state now, then every change.
    pub fn open(&self, mut socket: TcpStream, slot: Slot, session: &GuiGame) {
        let _ = socket.set_write_timeout(Some(STALL));
        if socket
            .write_all(HEAD.as_bytes())
            .and_then(|()| socket.flush())
            .is_err()
        {
            return;
        }
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let alive = Arc::new(AtomicBool::new(true));
        let to_thread = self.sender();
        let open = OpenStream {
            socket,
            alive: Arc::clone(&alive),
            subscription: None,
            _slot: slot,
        };
        // Sent before the game may send events for it: the thread reads
        // them in this order.
        let _ = to_thread.send(Message::Open(id, Box::new(open)));
        let events = to_thread.clone();
        let subscription = session.subscribe(Box::new(move |event: &str| {
            alive.load(Ordering::Acquire) && events.send(Message::Event(id, event.into())).is_ok()
        }));
        let _ = to_thread.send(Message::Attach(id, subscription));
    }

    fn sender(&self) -> Sender<Message> {
        self.to_thread
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The streams thread: writes each event to its stream and a keep-alive to
/// all of them every [`KEEPALIVE`]; a stream that cannot be written closes.
fn run(inbox: &Receiver<Message>) {
    let mut open: HashMap<u64, Box<OpenStream>> = HashMap::new();
    let mut beat = Instant::now() + KEEPALIVE;
    loop {
        match inbox.recv_timeout(beat.saturating_duration_since(Instant::now())) {
            Ok(Message::Open(id, stream)) => {
                open.insert(id, stream);
            }
            Ok(Message::Attach(id, subscription)) => {
                // A stream already closed drops its subscription here at once.
                if let Some(stream) = open.get_mut(&id) {
                    stream.subscription = Some(subscription);
                }
            }
            Ok(Message::Event(id, text)) => {
                if let Some(stream) = open.get_mut(&id)
                    && !stream.write(&text)
                {
                    open.remove(&id);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        if Instant::now() >= beat {
            open.retain(|_, stream| stream.write(": keepalive\n\n"));
            beat = Instant::now() + KEEPALIVE;
        }
    }
}
