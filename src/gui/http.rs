//! Just enough HTTP/1.1 for the GUI's own page and API, on plain sockets.
//!
//! Written here rather than taken from a server crate because the server
//! must hold many open event streams with a few threads: a request is read
//! whole (with a deadline), answered, and its connection closed
//! (`Connection: close`, no keep-alive), so that a worker of the bounded
//! pool is never parked on an idle connection; an event stream's socket is
//! handed to the one thread that writes every stream ([`super::streams`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The longest a request may take to arrive whole, and an answer to be
/// written: a client that stalls longer is dropped.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest request line plus headers read.
const MAX_HEAD: u64 = 16 << 10;
/// The most headers read.
const MAX_HEADERS: usize = 100;

/// A request read whole: method, target, headers and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// `GET`, `POST`, ... as sent.
    pub method: String,
    /// The target as sent: path and query.
    pub target: String,
    /// The headers in order, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body (`Content-Length` bytes; empty without one).
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first header of this name (any case), trimmed.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    /// The path of the target, without query or fragment.
    pub fn path(&self) -> &str {
        self.target.split(['?', '#']).next().unwrap_or("")
    }
}

/// Why a request could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The connection closed or stalled before a whole request came.
    #[error("reading the request: {0}")]
    Io(#[from] std::io::Error),
    /// The first line is not `METHOD /target HTTP/1.x`.
    #[error("bad request line {0:?}")]
    RequestLine(String),
    /// More headers than the server reads.
    #[error("more than {MAX_HEADERS} headers")]
    TooManyHeaders,
    /// A header without `:`.
    #[error("bad header line {0:?}")]
    HeaderLine(String),
    /// A chunked (or otherwise encoded) body.
    #[error("send the body with a Content-Length")]
    Encoded,
    /// A `Content-Length` that is not a number.
    #[error("Content-Length {0:?}")]
    Length(String),
    /// A body over the limit.
    #[error("the body is over {0} bytes")]
    BodyTooLarge(usize),
    /// A head over [`MAX_HEAD`] bytes.
    #[error("the request head is over {MAX_HEAD} bytes")]
    HeadTooLarge,
    /// A head that is not UTF-8.
    #[error("the request head is not UTF-8")]
    NotUtf8,
}

impl ReadError {
    /// The status to answer, if the client is still there to hear it: 400,
    /// 411, 413 or 431 (`None` for a connection that failed).
    pub fn status(&self) -> Option<u16> {
        match self {
            ReadError::Io(_) => None,
            ReadError::RequestLine(_)
            | ReadError::HeaderLine(_)
            | ReadError::Length(_)
            | ReadError::NotUtf8 => Some(400),
            ReadError::Encoded => Some(411),
            ReadError::BodyTooLarge(_) => Some(413),
            ReadError::TooManyHeaders | ReadError::HeadTooLarge => Some(431),
        }
    }
}

/// Reads one request from `stream`: its head (at most [`MAX_HEAD`] bytes and
/// [`MAX_HEADERS`] headers), then a body of `Content-Length` bytes, at most
/// `max_body`. A client that sends `Expect: 100-continue` is told to go on.
pub fn read_request(stream: &TcpStream, max_body: usize) -> Result<HttpRequest, ReadError> {
    let mut reader = BufReader::new(stream);
    let mut head = (&mut reader).take(MAX_HEAD);
    let request_line = read_line(&mut head)?;
    let mut words = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(ReadError::RequestLine(request_line));
    };
    if !version.starts_with("HTTP/1.") || method.is_empty() || !target.starts_with('/') {
        return Err(ReadError::RequestLine(request_line));
    }
    let mut headers = Vec::new();
    loop {
        let line = read_line(&mut head)?;
        if line.is_empty() {
            break;
        }
        if headers.len() == MAX_HEADERS {
            return Err(ReadError::TooManyHeaders);
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(ReadError::HeaderLine(line));
        };
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let mut request = HttpRequest {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body: Vec::new(),
    };
    if request.header("Transfer-Encoding").is_some() {
        return Err(ReadError::Encoded);
    }
    let length = match request.header("Content-Length") {
        None => 0,
        Some(text) => text
            .parse::<usize>()
            .map_err(|_| ReadError::Length(text.to_string()))?,
    };
    if length > max_body {
        return Err(ReadError::BodyTooLarge(max_body));
    }
    if length > 0
        && request
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let mut out = stream;
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
    }
    request.body = vec![0; length];
    reader.read_exact(&mut request.body)?;
    Ok(request)
}

/// One line of the head, without its line end; running out of the head's
/// allowance is a 431.
fn read_line(head: &mut impl BufRead) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    head.read_until(b'\n', &mut bytes)?;
    if bytes.last() != Some(&b'\n') {
        return Err(if bytes.is_empty() {
            ReadError::Io(std::io::ErrorKind::UnexpectedEof.into())
        } else {
            ReadError::HeadTooLarge
        });
    }
    bytes.pop();
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
}

/// An answer: status, headers and body, written with `Content-Length` and
/// `Connection: close`.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Headers besides `Content-Length` and `Connection`.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A response of `status` with a body of type `kind`.
    pub fn new(status: u16, kind: &str, body: impl Into<Vec<u8>>) -> HttpResponse {
        HttpResponse {
            status,
            headers: vec![("Content-Type", kind.to_string())],
            body: body.into(),
        }
    }

    /// The same with one more header.
    pub fn with_header(mut self, name: &'static str, value: &str) -> HttpResponse {
        self.headers.push((name, value.to_string()));
        self
    }

    /// Writes the response; the connection is then closed by dropping it.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.body.len()
        ));
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

/// The reason phrase of the statuses this server answers.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// `raw` sent on a socket, read by [`read_request`].
    fn read(raw: &[u8], max_body: usize) -> Result<HttpRequest, ReadError> {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        client.write_all(raw).unwrap();
        client.shutdown(std::net::Shutdown::Write).unwrap();
        let (server, _) = listener.accept().unwrap();
        server.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
        read_request(&server, max_body)
    }

    fn status(result: Result<HttpRequest, ReadError>) -> Option<u16> {
        result.err().and_then(|e| e.status())
    }

    #[test]
    fn a_request_is_read_whole() {
        let request = read(
            b"POST /api/game?x=1 HTTP/1.1\r\nHost: a:1\r\ncontent-length: 4\r\n\r\n{}\r\n",
            100,
        )
        .unwrap();
        assert_eq!(request.method, "POST");
        assert_eq!(request.path(), "/api/game");
        assert_eq!(request.header("Content-Length"), Some("4"));
        assert_eq!(request.header("HOST"), Some("a:1"));
        assert_eq!(request.body, b"{}\r\n");
    }

    #[test]
    fn bad_requests_are_refused_with_their_status() {
        assert_eq!(status(read(b"GET /\r\n\r\n", 10)), Some(400));
        assert_eq!(
            status(read(b"GET / HTTP/1.1\r\nNoColon\r\n\r\n", 10)),
            Some(400)
        );
        let big = b"POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n01234567890";
        assert_eq!(status(read(big, 10)), Some(413));
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        assert_eq!(status(read(chunked, 10)), Some(411));
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20 << 10));
        assert_eq!(status(read(long.as_bytes(), 10)), Some(431));
        // A body cut short is a broken connection, not a request.
        let short = b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab";
        assert!(matches!(read(short, 10), Err(ReadError::Io(_))));
    }
}
