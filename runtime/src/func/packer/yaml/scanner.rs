//! The reader and scanner of go-cty-yaml (a Go port of libyaml 0.1 kept
//! with go-yaml v2): tokens, marks and problems exactly as it produces
//! them, including its buffering (when a disallowed character is noticed
//! depends on the reader's 512-byte chunks) and its quirks (a byte order
//! mark is looked for at the start of the reader's buffer, not at the
//! current position).

use super::width;
use std::collections::{BTreeSet, VecDeque};

/// A position: character index, 0-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    pub index: usize,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenType {
    StreamStart,
    StreamEnd,
    VersionDirective,
    TagDirective,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias,
    Anchor,
    Tag,
    Scalar,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub typ: TokenType,
    pub start: Mark,
    pub end: Mark,
    /// Alias/anchor name, scalar text, tag handle, %TAG handle.
    pub value: Vec<u8>,
    /// Tag suffix.
    pub suffix: Vec<u8>,
    /// %TAG prefix.
    pub prefix: Vec<u8>,
    pub style: ScalarStyle,
    pub major: i8,
    pub minor: i8,
}

impl Token {
    fn new(typ: TokenType, start: Mark, end: Mark) -> Token {
        Token { typ, start, end, value: Vec::new(), suffix: Vec::new(), prefix: Vec::new(), style: ScalarStyle::Plain, major: 0, minor: 0 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    None,
    Reader,
    Scanner,
    Parser,
}

#[derive(Clone, Copy, Debug, Default)]
struct SimpleKey {
    possible: bool,
    required: bool,
    token_number: usize,
    mark: Mark,
}

pub type R = Result<(), ()>;

const RAW_SIZE: usize = 512;
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reader, scanner and (in `parser.rs`) parser state.
pub struct Scanner<'a> {
    input: &'a [u8],
    // Reader: raw buffer = input[raw_base..raw_end], next undecoded at raw_pos.
    raw_base: usize,
    raw_pos: usize,
    raw_end: usize,
    eof: bool,
    encoding_known: bool,
    /// Bytes of byte order mark skipped by the reader.
    bom: usize,
    unread: usize,
    /// Where the reader's buffer starts (after its last compaction).
    base: usize,
    /// Current position in the decoded text.
    pos: usize,

    pub error: ErrorKind,
    pub problem: String,
    pub problem_mark: Mark,
    pub context_mark: Mark,

    pub mark: Mark,
    stream_start_produced: bool,
    pub(super) stream_end_produced: bool,
    flow_level: usize,
    pub(super) tokens: VecDeque<Token>,
    pub(super) tokens_parsed: usize,
    pub(super) token_available: bool,
    indent: isize,
    indents: Vec<isize>,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    /// Levels whose simple key is possible (the scanner looks only at these).
    possible: BTreeSet<usize>,
}

fn allowed_char(v: u32) -> bool {
    matches!(v, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

pub(super) fn is_alpha_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl<'a> Scanner<'a> {
    pub fn new(input: &'a [u8]) -> Scanner<'a> {
        Scanner {
            input,
            raw_base: 0,
            raw_pos: 0,
            raw_end: 0,
            eof: false,
            encoding_known: false,
            bom: 0,
            unread: 0,
            base: 0,
            pos: 0,
            error: ErrorKind::None,
            problem: String::new(),
            problem_mark: Mark::default(),
            context_mark: Mark::default(),
            mark: Mark::default(),
            stream_start_produced: false,
            stream_end_produced: false,
            flow_level: 0,
            tokens: VecDeque::new(),
            tokens_parsed: 0,
            token_available: false,
            indent: 0,
            indents: Vec::new(),
            simple_key_allowed: false,
            simple_keys: Vec::new(),
            possible: BTreeSet::new(),
        }
    }

    // ----- reader -------------------------------------------------------

    /// The decoded byte at `i` (0 past the end, as the reader's padding).
    #[inline]
    fn at(&self, i: usize) -> u8 {
        self.input.get(self.bom + i).copied().unwrap_or(0)
    }

    #[inline]
    fn c(&self) -> u8 {
        self.at(self.pos)
    }

    #[inline]
    fn ca(&self, k: usize) -> u8 {
        self.at(self.pos + k)
    }

    fn update_raw(&mut self) {
        if self.raw_pos == self.raw_base && self.raw_end - self.raw_base == RAW_SIZE {
            return;
        }
        if self.eof {
            return;
        }
        self.raw_base = self.raw_pos;
        if self.raw_end == self.input.len() {
            self.eof = true;
            return;
        }
        let room = RAW_SIZE - (self.raw_end - self.raw_base);
        self.raw_end = (self.raw_end + room).min(self.input.len());
    }

    fn reader_error(&mut self, problem: &str) -> R {
        self.error = ErrorKind::Reader;
        self.problem = problem.to_string();
        Err(())
    }

    /// Makes at least `length` characters available (yaml_parser_update_buffer).
    fn cache(&mut self, length: usize) -> R {
        if self.unread >= length {
            return Ok(());
        }
        if !self.encoding_known {
            while !self.eof && self.raw_end - self.raw_pos < 3 {
                self.update_raw();
            }
            if self.raw_end - self.raw_pos >= 3 && &self.input[self.raw_pos..self.raw_pos + 3] == BOM {
                self.raw_pos += 3;
                self.bom = 3;
            }
            self.encoding_known = true;
        }
        self.base = self.pos;
        let mut first = true;
        while self.unread < length {
            if !first || self.raw_pos == self.raw_end {
                self.update_raw();
            }
            first = false;
            while self.raw_pos != self.raw_end {
                let octet = self.input[self.raw_pos];
                let w = width(octet);
                if w == 0 || w > self.raw_end - self.raw_pos {
                    // Valid UTF-8: only a sequence cut by the chunk's end.
                    break;
                }
                let v = match std::str::from_utf8(&self.input[self.raw_pos..self.raw_pos + w]) {
                    Ok(s) => s.chars().next().map(|c| c as u32).unwrap_or(0),
                    Err(_) => return self.reader_error("invalid leading UTF-8 octet"),
                };
                if !allowed_char(v) {
                    return self.reader_error("control characters are not allowed");
                }
                self.raw_pos += w;
                self.unread += 1;
            }
            if self.eof {
                self.unread += 1;
                break;
            }
        }
        Ok(())
    }

    // ----- character classes at the current position --------------------

    fn is_blank_at(&self, k: usize) -> bool {
        matches!(self.ca(k), b' ' | b'\t')
    }
    fn is_break_at(&self, k: usize) -> bool {
        let b = self.ca(k);
        b == b'\r'
            || b == b'\n'
            || (b == 0xC2 && self.ca(k + 1) == 0x85)
            || (b == 0xE2 && self.ca(k + 1) == 0x80 && (self.ca(k + 2) == 0xA8 || self.ca(k + 2) == 0xA9))
    }
    fn is_z_at(&self, k: usize) -> bool {
        self.ca(k) == 0
    }
    fn is_breakz_at(&self, k: usize) -> bool {
        self.is_break_at(k) || self.is_z_at(k)
    }
    fn is_blankz_at(&self, k: usize) -> bool {
        self.is_blank_at(k) || self.is_breakz_at(k)
    }
    fn is_alpha(&self) -> bool {
        is_alpha_byte(self.c())
    }

    // ----- moving -------------------------------------------------------

    fn skip(&mut self) {
        self.mark.index += 1;
        self.mark.column += 1;
        self.unread = self.unread.wrapping_sub(1);
        self.pos += width(self.c());
    }

    fn skip_line(&mut self) {
        if self.c() == b'\r' && self.ca(1) == b'\n' {
            self.mark.index += 2;
            self.mark.column = 0;
            self.mark.line += 1;
            self.unread = self.unread.wrapping_sub(2);
            self.pos += 2;
        } else if self.is_break_at(0) {
            self.mark.index += 1;
            self.mark.column = 0;
            self.mark.line += 1;
            self.unread = self.unread.wrapping_sub(1);
            self.pos += width(self.c());
        }
    }

    fn read(&mut self, s: &mut Vec<u8>) {
        let w = width(self.c()).max(1);
        for k in 0..w {
            s.push(self.ca(k));
        }
        self.pos += w;
        self.mark.index += 1;
        self.mark.column += 1;
        self.unread = self.unread.wrapping_sub(1);
    }

    fn read_line(&mut self, s: &mut Vec<u8>) {
        let (b0, b1, b2) = (self.c(), self.ca(1), self.ca(2));
        if b0 == b'\r' && b1 == b'\n' {
            s.push(b'\n');
            self.pos += 2;
            self.mark.index += 1;
            self.unread = self.unread.wrapping_sub(1);
        } else if b0 == b'\r' || b0 == b'\n' {
            s.push(b'\n');
            self.pos += 1;
        } else if b0 == 0xC2 && b1 == 0x85 {
            s.push(b'\n');
            self.pos += 2;
        } else if b0 == 0xE2 && b1 == 0x80 && (b2 == 0xA8 || b2 == 0xA9) {
            s.extend_from_slice(&[b0, b1, b2]);
            self.pos += 3;
        } else {
            return;
        }
        self.mark.index += 1;
        self.mark.column = 0;
        self.mark.line += 1;
        self.unread = self.unread.wrapping_sub(1);
    }

    // ----- errors -------------------------------------------------------

    fn scanner_error(&mut self, context_mark: Mark, problem: &str) -> R {
        self.error = ErrorKind::Scanner;
        self.context_mark = context_mark;
        self.problem = problem.to_string();
        self.problem_mark = self.mark;
        Err(())
    }

    // ----- token queue --------------------------------------------------

    fn insert_token(&mut self, pos: Option<usize>, token: Token) {
        match pos {
            None => self.tokens.push_back(token),
            Some(p) => self.tokens.insert(p.min(self.tokens.len()), token),
        }
    }

    fn set_possible(&mut self, level: usize, possible: bool) {
        self.simple_keys[level].possible = possible;
        if possible {
            self.possible.insert(level);
        } else {
            self.possible.remove(&level);
        }
    }

    /// The next token (yaml_parser_scan's peek), or an error.
    pub fn peek(&mut self) -> Result<&Token, ()> {
        if !self.token_available {
            self.fetch_more_tokens()?;
        }
        self.tokens.front().ok_or(())
    }

    pub fn skip_token(&mut self) {
        self.token_available = false;
        self.tokens_parsed += 1;
        if let Some(t) = self.tokens.pop_front() {
            self.stream_end_produced = t.typ == TokenType::StreamEnd;
        }
    }

    fn fetch_more_tokens(&mut self) -> R {
        loop {
            let mut need_more = false;
            if self.tokens.is_empty() {
                need_more = true;
            } else {
                self.stale_simple_keys()?;
                // Token numbers grow with the level too: past the first key
                // after the head token, none is at it.
                for &i in &self.possible {
                    let at = self.simple_keys[i].token_number;
                    if at == self.tokens_parsed {
                        need_more = true;
                    }
                    if at >= self.tokens_parsed {
                        break;
                    }
                }
            }
            if !need_more {
                break;
            }
            self.fetch_next_token()?;
        }
        self.token_available = true;
        Ok(())
    }

    fn fetch_next_token(&mut self) -> R {
        self.cache(1)?;
        if !self.stream_start_produced {
            self.fetch_stream_start();
            return Ok(());
        }
        self.scan_to_next_token()?;
        self.stale_simple_keys()?;
        self.unroll_indent(self.mark.column as isize);
        self.cache(4)?;
        if self.is_z_at(0) {
            return self.fetch_stream_end();
        }
        let c = self.c();
        if self.mark.column == 0 && c == b'%' {
            return self.fetch_directive();
        }
        if self.mark.column == 0 && c == b'-' && self.ca(1) == b'-' && self.ca(2) == b'-' && self.is_blankz_at(3) {
            return self.fetch_document_indicator(TokenType::DocumentStart);
        }
        if self.mark.column == 0 && c == b'.' && self.ca(1) == b'.' && self.ca(2) == b'.' && self.is_blankz_at(3) {
            return self.fetch_document_indicator(TokenType::DocumentEnd);
        }
        match c {
            b'[' => return self.fetch_flow_collection_start(TokenType::FlowSequenceStart),
            b'{' => return self.fetch_flow_collection_start(TokenType::FlowMappingStart),
            b']' => return self.fetch_flow_collection_end(TokenType::FlowSequenceEnd),
            b'}' => return self.fetch_flow_collection_end(TokenType::FlowMappingEnd),
            b',' => return self.fetch_flow_entry(),
            _ => {}
        }
        if c == b'-' && self.is_blankz_at(1) {
            return self.fetch_block_entry();
        }
        if c == b'?' && (self.flow_level > 0 || self.is_blankz_at(1)) {
            return self.fetch_key();
        }
        if c == b':' && (self.flow_level > 0 || self.is_blankz_at(1)) {
            return self.fetch_value();
        }
        match c {
            b'*' => return self.fetch_anchor(TokenType::Alias),
            b'&' => return self.fetch_anchor(TokenType::Anchor),
            b'!' => return self.fetch_tag(),
            b'|' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            b'>' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            b'\'' => return self.fetch_flow_scalar(true),
            b'"' => return self.fetch_flow_scalar(false),
            _ => {}
        }
        let indicator = matches!(
            c,
            b'-' | b'?'
                | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
        );
        if !(self.is_blankz_at(0) || indicator)
            || (c == b'-' && !self.is_blank_at(1))
            || (self.flow_level == 0 && (c == b'?' || c == b':') && !self.is_blankz_at(1))
        {
            return self.fetch_plain_scalar();
        }
        let m = self.mark;
        self.scanner_error(m, "found character that cannot start any token")
    }

    /// Drops the possible simple keys that can no longer be keys (on an
    /// earlier line, or over 1024 characters back), failing at a required
    /// one. A deeper level's key was saved later in the text than a
    /// shallower level's, so the stale keys are those of the first levels:
    /// the walk stops at the first key that is not stale (walking them all
    /// made each token cost the nesting depth: 0.2 s for 9,000 levels).
    fn stale_simple_keys(&mut self) -> R {
        while let Some(&i) = self.possible.first() {
            let k = self.simple_keys[i];
            if k.mark.line >= self.mark.line && k.mark.index + 1024 >= self.mark.index {
                break;
            }
            if k.required {
                return self.scanner_error(k.mark, "could not find expected ':'");
            }
            self.set_possible(i, false);
        }
        Ok(())
    }

    fn save_simple_key(&mut self) -> R {
        let required = self.flow_level == 0 && self.indent == self.mark.column as isize;
        if self.simple_key_allowed {
            let key = SimpleKey { possible: true, required, token_number: self.tokens_parsed + self.tokens.len(), mark: self.mark };
            self.remove_simple_key()?;
            let last = self.simple_keys.len() - 1;
            self.simple_keys[last] = key;
            self.set_possible(last, true);
        }
        Ok(())
    }

    fn remove_simple_key(&mut self) -> R {
        let i = self.simple_keys.len() - 1;
        let k = self.simple_keys[i];
        if k.possible && k.required {
            return self.scanner_error(k.mark, "could not find expected ':'");
        }
        self.set_possible(i, false);
        Ok(())
    }

    fn increase_flow_level(&mut self) {
        self.simple_keys.push(SimpleKey::default());
        self.flow_level += 1;
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            let i = self.simple_keys.len() - 1;
            self.possible.remove(&i);
            self.simple_keys.pop();
        }
    }

    /// `number`: the absolute token number to insert before, or None to append.
    fn roll_indent(&mut self, column: isize, number: Option<usize>, typ: TokenType, mark: Mark) {
        if self.flow_level > 0 {
            return;
        }
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            let token = Token::new(typ, mark, mark);
            self.insert_token(number.map(|n| n.wrapping_sub(self.tokens_parsed)), token);
        }
    }

    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            let token = Token::new(TokenType::BlockEnd, self.mark, self.mark);
            self.insert_token(None, token);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    fn fetch_stream_start(&mut self) {
        self.indent = -1;
        self.simple_keys.push(SimpleKey::default());
        self.simple_key_allowed = true;
        self.stream_start_produced = true;
        let token = Token::new(TokenType::StreamStart, self.mark, self.mark);
        self.insert_token(None, token);
    }

    fn fetch_stream_end(&mut self) -> R {
        if self.mark.column != 0 {
            self.mark.column = 0;
            self.mark.line += 1;
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let token = Token::new(TokenType::StreamEnd, self.mark, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_directive(&mut self) -> R {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_directive()?;
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, typ: TokenType) -> R {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        self.skip();
        self.skip();
        let token = Token::new(typ, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, typ: TokenType) -> R {
        self.save_simple_key()?;
        self.increase_flow_level();
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let token = Token::new(typ, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, typ: TokenType) -> R {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        let start = self.mark;
        self.skip();
        let token = Token::new(typ, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> R {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let token = Token::new(TokenType::FlowEntry, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> R {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                let m = self.mark;
                return self.scanner_error(m, "block sequence entries are not allowed in this context");
            }
            let m = self.mark;
            self.roll_indent(m.column as isize, None, TokenType::BlockSequenceStart, m);
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.mark;
        self.skip();
        let token = Token::new(TokenType::BlockEntry, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_key(&mut self) -> R {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                let m = self.mark;
                return self.scanner_error(m, "mapping keys are not allowed in this context");
            }
            let m = self.mark;
            self.roll_indent(m.column as isize, None, TokenType::BlockMappingStart, m);
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        let start = self.mark;
        self.skip();
        let token = Token::new(TokenType::Key, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_value(&mut self) -> R {
        let last = self.simple_keys.len() - 1;
        let sk = self.simple_keys[last];
        if sk.possible {
            let token = Token::new(TokenType::Key, sk.mark, sk.mark);
            self.insert_token(Some(sk.token_number.wrapping_sub(self.tokens_parsed)), token);
            self.roll_indent(sk.mark.column as isize, Some(sk.token_number), TokenType::BlockMappingStart, sk.mark);
            self.set_possible(last, false);
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    let m = self.mark;
                    return self.scanner_error(m, "mapping values are not allowed in this context");
                }
                let m = self.mark;
                self.roll_indent(m.column as isize, None, TokenType::BlockMappingStart, m);
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        let start = self.mark;
        self.skip();
        let token = Token::new(TokenType::Value, start, self.mark);
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_anchor(&mut self, typ: TokenType) -> R {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_anchor(typ)?;
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> R {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_tag()?;
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> R {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let token = self.scan_block_scalar(literal)?;
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, single: bool) -> R {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_flow_scalar(single)?;
        self.insert_token(None, token);
        Ok(())
    }

    fn fetch_plain_scalar(&mut self) -> R {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let token = self.scan_plain_scalar()?;
        self.insert_token(None, token);
        Ok(())
    }

    fn scan_to_next_token(&mut self) -> R {
        loop {
            self.cache(1)?;
            if self.mark.column == 0 && self.at(self.base) == 0xEF && self.at(self.base + 1) == 0xBB && self.at(self.base + 2) == 0xBF {
                self.skip();
            }
            self.cache(1)?;
            while self.c() == b' ' || ((self.flow_level > 0 || !self.simple_key_allowed) && self.c() == b'\t') {
                self.skip();
                self.cache(1)?;
            }
            if self.c() == b'#' {
                while !self.is_breakz_at(0) {
                    self.skip();
                    self.cache(1)?;
                }
            }
            if self.is_break_at(0) {
                self.cache(2)?;
                self.skip_line();
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    fn skip_blanks_and_comment(&mut self) -> R {
        self.cache(1)?;
        while self.is_blank_at(0) {
            self.skip();
            self.cache(1)?;
        }
        if self.c() == b'#' {
            while !self.is_breakz_at(0) {
                self.skip();
                self.cache(1)?;
            }
        }
        Ok(())
    }

    fn scan_directive(&mut self) -> Result<Token, ()> {
        let start = self.mark;
        self.skip();
        let name = self.scan_directive_name(start)?;
        let mut token;
        if name == b"YAML" {
            let (major, minor) = self.scan_version_directive_value(start)?;
            token = Token::new(TokenType::VersionDirective, start, self.mark);
            token.major = major;
            token.minor = minor;
        } else if name == b"TAG" {
            let (handle, prefix) = self.scan_tag_directive_value(start)?;
            token = Token::new(TokenType::TagDirective, start, self.mark);
            token.value = handle;
            token.prefix = prefix;
        } else {
            self.scanner_error(start, "found unknown directive name")?;
            return Err(());
        }
        self.skip_blanks_and_comment()?;
        if !self.is_breakz_at(0) {
            self.scanner_error(start, "did not find expected comment or line break")?;
        }
        if self.is_break_at(0) {
            self.cache(2)?;
            self.skip_line();
        }
        Ok(token)
    }

    fn scan_directive_name(&mut self, start: Mark) -> Result<Vec<u8>, ()> {
        self.cache(1)?;
        let mut s = Vec::new();
        while self.is_alpha() {
            self.read(&mut s);
            self.cache(1)?;
        }
        if s.is_empty() {
            self.scanner_error(start, "could not find expected directive name")?;
        }
        if !self.is_blankz_at(0) {
            self.scanner_error(start, "found unexpected non-alphabetical character")?;
        }
        Ok(s)
    }

    fn scan_version_directive_value(&mut self, start: Mark) -> Result<(i8, i8), ()> {
        self.cache(1)?;
        while self.is_blank_at(0) {
            self.skip();
            self.cache(1)?;
        }
        let major = self.scan_version_directive_number(start)?;
        if self.c() != b'.' {
            self.scanner_error(start, "did not find expected digit or '.' character")?;
        }
        self.skip();
        let minor = self.scan_version_directive_number(start)?;
        Ok((major, minor))
    }

    fn scan_version_directive_number(&mut self, start: Mark) -> Result<i8, ()> {
        self.cache(1)?;
        let mut value: i8 = 0;
        let mut length = 0;
        while self.c().is_ascii_digit() {
            length += 1;
            if length > 2 {
                self.scanner_error(start, "found extremely long version number")?;
            }
            value = value.wrapping_mul(10).wrapping_add((self.c() - b'0') as i8);
            self.skip();
            self.cache(1)?;
        }
        if length == 0 {
            self.scanner_error(start, "did not find expected version number")?;
        }
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Result<(Vec<u8>, Vec<u8>), ()> {
        self.cache(1)?;
        while self.is_blank_at(0) {
            self.skip();
            self.cache(1)?;
        }
        let handle = self.scan_tag_handle(true, start)?;
        self.cache(1)?;
        if !self.is_blank_at(0) {
            self.scanner_error(start, "did not find expected whitespace")?;
        }
        while self.is_blank_at(0) {
            self.skip();
            self.cache(1)?;
        }
        let prefix = self.scan_tag_uri(true, &[], start)?;
        self.cache(1)?;
        if !self.is_blankz_at(0) {
            self.scanner_error(start, "did not find expected whitespace or line break")?;
        }
        Ok((handle, prefix))
    }

    fn scan_anchor(&mut self, typ: TokenType) -> Result<Token, ()> {
        let mut s = Vec::new();
        let start = self.mark;
        self.skip();
        self.cache(1)?;
        while self.is_alpha() {
            self.read(&mut s);
            self.cache(1)?;
        }
        let end = self.mark;
        let c = self.c();
        if s.is_empty() || !(self.is_blankz_at(0) || matches!(c, b'?' | b':' | b',' | b']' | b'}' | b'%' | b'@' | b'`')) {
            self.scanner_error(start, "did not find expected alphabetic or numeric character")?;
        }
        let mut token = Token::new(typ, start, end);
        token.value = s;
        Ok(token)
    }

    fn scan_tag(&mut self) -> Result<Token, ()> {
        let start = self.mark;
        self.cache(2)?;
        let mut handle;
        let suffix;
        if self.ca(1) == b'<' {
            handle = Vec::new();
            self.skip();
            self.skip();
            suffix = self.scan_tag_uri(false, &[], start)?;
            if self.c() != b'>' {
                self.scanner_error(start, "did not find the expected '>'")?;
            }
            self.skip();
        } else {
            handle = self.scan_tag_handle(false, start)?;
            if handle.len() > 1 && handle[0] == b'!' && handle[handle.len() - 1] == b'!' {
                suffix = self.scan_tag_uri(false, &[], start)?;
            } else {
                let mut sfx = self.scan_tag_uri(false, &handle, start)?;
                handle = vec![b'!'];
                if sfx.is_empty() {
                    std::mem::swap(&mut handle, &mut sfx);
                }
                suffix = sfx;
            }
        }
        self.cache(1)?;
        if !self.is_blankz_at(0) {
            self.scanner_error(start, "did not find expected whitespace or line break")?;
        }
        let mut token = Token::new(TokenType::Tag, start, self.mark);
        token.value = handle;
        token.suffix = suffix;
        Ok(token)
    }

    fn scan_tag_handle(&mut self, directive: bool, start: Mark) -> Result<Vec<u8>, ()> {
        self.cache(1)?;
        if self.c() != b'!' {
            self.scanner_error(start, "did not find expected '!'")?;
        }
        let mut s = Vec::new();
        self.read(&mut s);
        self.cache(1)?;
        while self.is_alpha() {
            self.read(&mut s);
            self.cache(1)?;
        }
        if self.c() == b'!' {
            self.read(&mut s);
        } else if directive && s != b"!" {
            self.scanner_error(start, "did not find expected '!'")?;
        }
        Ok(s)
    }

    fn scan_tag_uri(&mut self, directive: bool, head: &[u8], start: Mark) -> Result<Vec<u8>, ()> {
        let mut s = Vec::new();
        let mut has_tag = !head.is_empty();
        if head.len() > 1 {
            s.extend_from_slice(&head[1..]);
        }
        self.cache(1)?;
        loop {
            let c = self.c();
            let ok = self.is_alpha()
                || matches!(
                    c,
                    b';' | b'/'
                        | b'?'
                        | b':'
                        | b'@'
                        | b'&'
                        | b'='
                        | b'+'
                        | b'$'
                        | b','
                        | b'.'
                        | b'!'
                        | b'~'
                        | b'*'
                        | b'\''
                        | b'('
                        | b')'
                        | b'['
                        | b']'
                        | b'%'
                );
            if !ok {
                break;
            }
            if c == b'%' {
                self.scan_uri_escapes(directive, start, &mut s)?;
            } else {
                self.read(&mut s);
            }
            self.cache(1)?;
            has_tag = true;
        }
        if !has_tag {
            self.scanner_error(start, "did not find expected tag URI")?;
        }
        Ok(s)
    }

    fn scan_uri_escapes(&mut self, _directive: bool, start: Mark, s: &mut Vec<u8>) -> R {
        let mut w: usize = 1024;
        while w > 0 {
            self.cache(3)?;
            if !(self.c() == b'%' && self.ca(1).is_ascii_hexdigit() && self.ca(2).is_ascii_hexdigit()) {
                return self.scanner_error(start, "did not find URI escaped octet");
            }
            let hex = |b: u8| -> u8 {
                match b {
                    b'A'..=b'F' => b - b'A' + 10,
                    b'a'..=b'f' => b - b'a' + 10,
                    _ => b - b'0',
                }
            };
            let octet = (hex(self.ca(1)) << 4) + hex(self.ca(2));
            if w == 1024 {
                w = width(octet);
                if w == 0 {
                    return self.scanner_error(start, "found an incorrect leading UTF-8 octet");
                }
            } else if octet & 0xC0 != 0x80 {
                return self.scanner_error(start, "found an incorrect trailing UTF-8 octet");
            }
            s.push(octet);
            self.skip();
            self.skip();
            self.skip();
            w -= 1;
        }
        Ok(())
    }

    fn scan_block_scalar(&mut self, literal: bool) -> Result<Token, ()> {
        let start = self.mark;
        self.skip();
        self.cache(1)?;
        let mut chomping = 0i32;
        let mut increment = 0isize;
        if self.c() == b'+' || self.c() == b'-' {
            chomping = if self.c() == b'+' { 1 } else { -1 };
            self.skip();
            self.cache(1)?;
            if self.c().is_ascii_digit() {
                if self.c() == b'0' {
                    self.scanner_error(start, "found an indentation indicator equal to 0")?;
                }
                increment = (self.c() - b'0') as isize;
                self.skip();
            }
        } else if self.c().is_ascii_digit() {
            if self.c() == b'0' {
                self.scanner_error(start, "found an indentation indicator equal to 0")?;
            }
            increment = (self.c() - b'0') as isize;
            self.skip();
            self.cache(1)?;
            if self.c() == b'+' || self.c() == b'-' {
                chomping = if self.c() == b'+' { 1 } else { -1 };
                self.skip();
            }
        }
        self.skip_blanks_and_comment()?;
        if !self.is_breakz_at(0) {
            self.scanner_error(start, "did not find expected comment or line break")?;
        }
        if self.is_break_at(0) {
            self.cache(2)?;
            self.skip_line();
        }
        let mut end = self.mark;
        let mut indent: isize = 0;
        if increment > 0 {
            indent = if self.indent >= 0 { self.indent + increment } else { increment };
        }
        let mut s = Vec::new();
        let mut leading_break = Vec::new();
        let mut trailing_breaks = Vec::new();
        self.scan_block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        self.cache(1)?;
        let mut leading_blank = false;
        while self.mark.column as isize == indent && !self.is_z_at(0) {
            let trailing_blank = self.is_blank_at(0);
            if !literal && !leading_blank && !trailing_blank && leading_break.first() == Some(&b'\n') {
                if trailing_breaks.is_empty() {
                    s.push(b' ');
                }
            } else {
                s.extend_from_slice(&leading_break);
            }
            leading_break.clear();
            s.extend_from_slice(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = self.is_blank_at(0);
            while !self.is_breakz_at(0) {
                self.read(&mut s);
                self.cache(1)?;
            }
            self.cache(2)?;
            self.read_line(&mut leading_break);
            self.scan_block_scalar_breaks(&mut indent, &mut trailing_breaks, start, &mut end)?;
        }
        if chomping != -1 {
            s.extend_from_slice(&leading_break);
        }
        if chomping == 1 {
            s.extend_from_slice(&trailing_breaks);
        }
        let mut token = Token::new(TokenType::Scalar, start, end);
        token.value = s;
        token.style = if literal { ScalarStyle::Literal } else { ScalarStyle::Folded };
        Ok(token)
    }

    fn scan_block_scalar_breaks(&mut self, indent: &mut isize, breaks: &mut Vec<u8>, start: Mark, end: &mut Mark) -> R {
        *end = self.mark;
        let mut max_indent: isize = 0;
        loop {
            self.cache(1)?;
            while (*indent == 0 || (self.mark.column as isize) < *indent) && self.c() == b' ' {
                self.skip();
                self.cache(1)?;
            }
            if self.mark.column as isize > max_indent {
                max_indent = self.mark.column as isize;
            }
            if (*indent == 0 || (self.mark.column as isize) < *indent) && self.c() == b'\t' {
                return self.scanner_error(start, "found a tab character where an indentation space is expected");
            }
            if !self.is_break_at(0) {
                break;
            }
            self.cache(2)?;
            self.read_line(breaks);
            *end = self.mark;
        }
        if *indent == 0 {
            *indent = max_indent;
            if *indent < self.indent + 1 {
                *indent = self.indent + 1;
            }
            if *indent < 1 {
                *indent = 1;
            }
        }
        Ok(())
    }

    fn is_document_indicator(&self) -> bool {
        self.mark.column == 0
            && ((self.c() == b'-' && self.ca(1) == b'-' && self.ca(2) == b'-')
                || (self.c() == b'.' && self.ca(1) == b'.' && self.ca(2) == b'.'))
            && self.is_blankz_at(3)
    }

    fn scan_flow_scalar(&mut self, single: bool) -> Result<Token, ()> {
        let start = self.mark;
        self.skip();
        let mut s = Vec::new();
        let mut leading_break = Vec::new();
        let mut trailing_breaks = Vec::new();
        let mut whitespaces = Vec::new();
        loop {
            self.cache(4)?;
            if self.is_document_indicator() {
                self.scanner_error(start, "found unexpected document indicator")?;
            }
            if self.is_z_at(0) {
                self.scanner_error(start, "found unexpected end of stream")?;
            }
            let mut leading_blanks = false;
            while !self.is_blankz_at(0) {
                let c = self.c();
                if single && c == b'\'' && self.ca(1) == b'\'' {
                    s.push(b'\'');
                    self.skip();
                    self.skip();
                } else if (single && c == b'\'') || (!single && c == b'"') {
                    break;
                } else if !single && c == b'\\' && self.is_break_at(1) {
                    self.cache(3)?;
                    self.skip();
                    self.skip_line();
                    leading_blanks = true;
                    break;
                } else if !single && c == b'\\' {
                    let mut code_length = 0;
                    match self.ca(1) {
                        b'0' => s.push(0),
                        b'a' => s.push(0x07),
                        b'b' => s.push(0x08),
                        b't' | b'\t' => s.push(0x09),
                        b'n' => s.push(0x0A),
                        b'v' => s.push(0x0B),
                        b'f' => s.push(0x0C),
                        b'r' => s.push(0x0D),
                        b'e' => s.push(0x1B),
                        b' ' => s.push(0x20),
                        b'"' => s.push(b'"'),
                        b'\'' => s.push(b'\''),
                        b'\\' => s.push(b'\\'),
                        b'N' => s.extend_from_slice(&[0xC2, 0x85]),
                        b'_' => s.extend_from_slice(&[0xC2, 0xA0]),
                        b'L' => s.extend_from_slice(&[0xE2, 0x80, 0xA8]),
                        b'P' => s.extend_from_slice(&[0xE2, 0x80, 0xA9]),
                        b'x' => code_length = 2,
                        b'u' => code_length = 4,
                        b'U' => code_length = 8,
                        _ => {
                            self.scanner_error(start, "found unknown escape character")?;
                        }
                    }
                    self.skip();
                    self.skip();
                    if code_length > 0 {
                        self.cache(code_length)?;
                        let mut value: u32 = 0;
                        for k in 0..code_length {
                            let b = self.ca(k);
                            if !b.is_ascii_hexdigit() {
                                self.scanner_error(start, "did not find expected hexdecimal number")?;
                            }
                            let d = match b {
                                b'A'..=b'F' => b - b'A' + 10,
                                b'a'..=b'f' => b - b'a' + 10,
                                _ => b - b'0',
                            };
                            value = (value << 4) + d as u32;
                        }
                        if (0xD800..=0xDFFF).contains(&value) || value > 0x10FFFF {
                            self.scanner_error(start, "found invalid Unicode character escape code")?;
                        }
                        if let Some(ch) = char::from_u32(value) {
                            let mut buf = [0u8; 4];
                            s.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        for _ in 0..code_length {
                            self.skip();
                        }
                    }
                } else {
                    self.read(&mut s);
                }
                self.cache(2)?;
            }
            self.cache(1)?;
            if (single && self.c() == b'\'') || (!single && self.c() == b'"') {
                break;
            }
            while self.is_blank_at(0) || self.is_break_at(0) {
                if self.is_blank_at(0) {
                    if !leading_blanks {
                        self.read(&mut whitespaces);
                    } else {
                        self.skip();
                    }
                } else {
                    self.cache(2)?;
                    if !leading_blanks {
                        whitespaces.clear();
                        self.read_line(&mut leading_break);
                        leading_blanks = true;
                    } else {
                        self.read_line(&mut trailing_breaks);
                    }
                }
                self.cache(1)?;
            }
            if leading_blanks {
                if leading_break.first() == Some(&b'\n') {
                    if trailing_breaks.is_empty() {
                        s.push(b' ');
                    } else {
                        s.extend_from_slice(&trailing_breaks);
                    }
                } else {
                    s.extend_from_slice(&leading_break);
                    s.extend_from_slice(&trailing_breaks);
                }
                trailing_breaks.clear();
                leading_break.clear();
            } else {
                s.extend_from_slice(&whitespaces);
                whitespaces.clear();
            }
        }
        self.skip();
        let mut token = Token::new(TokenType::Scalar, start, self.mark);
        token.value = s;
        token.style = if single { ScalarStyle::SingleQuoted } else { ScalarStyle::DoubleQuoted };
        Ok(token)
    }

    fn scan_plain_scalar(&mut self) -> Result<Token, ()> {
        let mut s = Vec::new();
        let mut leading_break = Vec::new();
        let mut trailing_breaks = Vec::new();
        let mut whitespaces = Vec::new();
        let mut leading_blanks = false;
        let indent = self.indent + 1;
        let start = self.mark;
        let mut end = self.mark;
        loop {
            self.cache(4)?;
            if self.is_document_indicator() {
                break;
            }
            if self.c() == b'#' {
                break;
            }
            while !self.is_blankz_at(0) {
                let c = self.c();
                if (c == b':' && self.is_blankz_at(1)) || (self.flow_level > 0 && matches!(c, b',' | b'?' | b'[' | b']' | b'{' | b'}')) {
                    break;
                }
                if leading_blanks || !whitespaces.is_empty() {
                    if leading_blanks {
                        if leading_break.first() == Some(&b'\n') {
                            if trailing_breaks.is_empty() {
                                s.push(b' ');
                            } else {
                                s.extend_from_slice(&trailing_breaks);
                            }
                        } else {
                            s.extend_from_slice(&leading_break);
                            s.extend_from_slice(&trailing_breaks);
                        }
                        trailing_breaks.clear();
                        leading_break.clear();
                        leading_blanks = false;
                    } else {
                        s.extend_from_slice(&whitespaces);
                        whitespaces.clear();
                    }
                }
                self.read(&mut s);
                end = self.mark;
                self.cache(2)?;
            }
            if !(self.is_blank_at(0) || self.is_break_at(0)) {
                break;
            }
            self.cache(1)?;
            while self.is_blank_at(0) || self.is_break_at(0) {
                if self.is_blank_at(0) {
                    if leading_blanks && (self.mark.column as isize) < indent && self.c() == b'\t' {
                        self.scanner_error(start, "found a tab character that violates indentation")?;
                    }
                    if !leading_blanks {
                        self.read(&mut whitespaces);
                    } else {
                        self.skip();
                    }
                } else {
                    self.cache(2)?;
                    if !leading_blanks {
                        whitespaces.clear();
                        self.read_line(&mut leading_break);
                        leading_blanks = true;
                    } else {
                        self.read_line(&mut trailing_breaks);
                    }
                }
                self.cache(1)?;
            }
            if self.flow_level == 0 && (self.mark.column as isize) < indent {
                break;
            }
        }
        let mut token = Token::new(TokenType::Scalar, start, end);
        token.value = s;
        token.style = ScalarStyle::Plain;
        if leading_blanks {
            self.simple_key_allowed = true;
        }
        Ok(token)
    }
}
