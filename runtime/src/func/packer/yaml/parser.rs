//! go-cty-yaml's parser: tokens to events, with its marks and problems.

use super::scanner::{ErrorKind, Mark, ScalarStyle, Scanner, TokenType, R};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias,
    Scalar,
    SequenceStart,
    SequenceEnd,
    MappingStart,
    MappingEnd,
}

impl EventType {
    /// go-cty-yaml's `yaml_event_type_t.String`.
    pub fn name(self) -> &'static str {
        match self {
            EventType::StreamStart => "stream start",
            EventType::StreamEnd => "stream end",
            EventType::DocumentStart => "document start",
            EventType::DocumentEnd => "document end",
            EventType::Alias => "alias",
            EventType::Scalar => "scalar",
            EventType::SequenceStart => "sequence start",
            EventType::SequenceEnd => "sequence end",
            EventType::MappingStart => "mapping start",
            EventType::MappingEnd => "mapping end",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Event {
    pub typ: EventType,
    pub start: Mark,
    pub anchor: Vec<u8>,
    pub tag: Vec<u8>,
    pub value: Vec<u8>,
    pub implicit: bool,
    pub style: ScalarStyle,
}

impl Event {
    fn new(typ: EventType, start: Mark) -> Event {
        Event { typ, start, anchor: Vec::new(), tag: Vec::new(), value: Vec::new(), implicit: false, style: ScalarStyle::Plain }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

pub struct Parser<'a> {
    pub s: Scanner<'a>,
    state: State,
    states: Vec<State>,
    marks: Vec<Mark>,
    /// Handle to prefix (a map: a document may declare many).
    tag_directives: std::collections::HashMap<Vec<u8>, Vec<u8>>,
}

type PR = Result<Option<Event>, ()>;

impl<'a> Parser<'a> {
    pub fn new(input: &'a [u8]) -> Parser<'a> {
        Parser {
            s: Scanner::new(input),
            state: State::StreamStart,
            states: Vec::new(),
            marks: Vec::new(),
            tag_directives: std::collections::HashMap::new(),
        }
    }

    fn parser_error(&mut self, problem: &str, problem_mark: Mark) -> R {
        self.s.error = ErrorKind::Parser;
        self.s.problem = problem.to_string();
        self.s.problem_mark = problem_mark;
        Err(())
    }

    fn parser_error_context(&mut self, context_mark: Mark, problem: &str, problem_mark: Mark) -> R {
        self.s.context_mark = context_mark;
        self.parser_error(problem, problem_mark)
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(State::End);
    }

    /// The next event; `Ok(None)` after the stream's end (Go's zero event).
    pub fn parse(&mut self) -> PR {
        if self.s.stream_end_produced || self.s.error != ErrorKind::None || self.state == State::End {
            return Ok(None);
        }
        match self.state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_document_start(true),
            State::DocumentStart => self.parse_document_start(false),
            State::DocumentContent => self.parse_document_content(),
            State::DocumentEnd => self.parse_document_end(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => self.parse_block_sequence_entry(true),
            State::BlockSequenceEntry => self.parse_block_sequence_entry(false),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => self.parse_block_mapping_key(true),
            State::BlockMappingKey => self.parse_block_mapping_key(false),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => self.parse_flow_sequence_entry(true),
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => self.parse_flow_sequence_entry_mapping_end(),
            State::FlowMappingFirstKey => self.parse_flow_mapping_key(true),
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(false),
            State::FlowMappingEmptyValue => self.parse_flow_mapping_value(true),
            State::End => Ok(None),
        }
    }

    fn peek_typ(&mut self) -> Result<(TokenType, Mark, Mark), ()> {
        let t = self.s.peek()?;
        Ok((t.typ, t.start, t.end))
    }

    fn parse_stream_start(&mut self) -> PR {
        let (typ, start, _) = self.peek_typ()?;
        if typ != TokenType::StreamStart {
            self.parser_error("did not find expected <stream-start>", start)?;
        }
        self.state = State::ImplicitDocumentStart;
        self.s.skip_token();
        Ok(Some(Event::new(EventType::StreamStart, start)))
    }

    fn parse_document_start(&mut self, implicit: bool) -> PR {
        let (mut typ, mut start, _) = self.peek_typ()?;
        if !implicit {
            while typ == TokenType::DocumentEnd {
                self.s.skip_token();
                (typ, start, _) = self.peek_typ()?;
            }
        }
        if implicit
            && !matches!(typ, TokenType::VersionDirective | TokenType::TagDirective | TokenType::DocumentStart | TokenType::StreamEnd)
        {
            self.process_directives()?;
            self.states.push(State::DocumentEnd);
            self.state = State::BlockNode;
            Ok(Some(Event::new(EventType::DocumentStart, start)))
        } else if typ != TokenType::StreamEnd {
            let start_mark = start;
            self.process_directives()?;
            let (typ, start, _) = self.peek_typ()?;
            if typ != TokenType::DocumentStart {
                self.parser_error("did not find expected <document start>", start)?;
            }
            self.states.push(State::DocumentEnd);
            self.state = State::DocumentContent;
            self.s.skip_token();
            Ok(Some(Event::new(EventType::DocumentStart, start_mark)))
        } else {
            self.state = State::End;
            self.s.skip_token();
            Ok(Some(Event::new(EventType::StreamEnd, start)))
        }
    }

    fn parse_document_content(&mut self) -> PR {
        let (typ, start, _) = self.peek_typ()?;
        if matches!(
            typ,
            TokenType::VersionDirective
                | TokenType::TagDirective
                | TokenType::DocumentStart
                | TokenType::DocumentEnd
                | TokenType::StreamEnd
        ) {
            self.pop_state();
            return Ok(Some(empty_scalar(start)));
        }
        self.parse_node(true, false)
    }

    fn parse_document_end(&mut self) -> PR {
        let (typ, start, _) = self.peek_typ()?;
        if typ == TokenType::DocumentEnd {
            self.s.skip_token();
        }
        self.tag_directives.clear();
        self.state = State::DocumentStart;
        Ok(Some(Event::new(EventType::DocumentEnd, start)))
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> PR {
        let t = self.s.peek()?;
        if t.typ == TokenType::Alias {
            let mut ev = Event::new(EventType::Alias, t.start);
            ev.anchor = t.value.clone();
            self.pop_state();
            self.s.skip_token();
            return Ok(Some(ev));
        }
        let mut start = t.start;
        let mut tag_token = false;
        let mut tag_handle = Vec::new();
        let mut tag_suffix = Vec::new();
        let mut anchor = Vec::new();
        let mut tag_mark = Mark::default();
        if t.typ == TokenType::Anchor {
            anchor = t.value.clone();
            start = t.start;
            self.s.skip_token();
            let t = self.s.peek()?;
            if t.typ == TokenType::Tag {
                tag_token = true;
                tag_handle = t.value.clone();
                tag_suffix = t.suffix.clone();
                tag_mark = t.start;
                self.s.skip_token();
                self.s.peek()?;
            }
        } else if t.typ == TokenType::Tag {
            tag_token = true;
            tag_handle = t.value.clone();
            tag_suffix = t.suffix.clone();
            start = t.start;
            tag_mark = t.start;
            self.s.skip_token();
            let t = self.s.peek()?;
            if t.typ == TokenType::Anchor {
                anchor = t.value.clone();
                self.s.skip_token();
                self.s.peek()?;
            }
        }
        let mut tag = Vec::new();
        if tag_token {
            if tag_handle.is_empty() {
                tag = tag_suffix;
            } else {
                if let Some(prefix) = self.tag_directives.get(&tag_handle) {
                    tag = prefix.clone();
                    tag.extend_from_slice(&tag_suffix);
                }
                if tag.is_empty() {
                    self.parser_error_context(start, "found undefined tag handle", tag_mark)?;
                }
            }
        }
        let implicit = tag.is_empty();
        let (typ, tstart, style, value) = {
            let t = self.s.peek()?;
            (t.typ, t.start, t.style, if t.typ == TokenType::Scalar { t.value.clone() } else { Vec::new() })
        };
        let mut ev = Event::new(EventType::Scalar, start);
        ev.anchor = anchor;
        if indentless_sequence && typ == TokenType::BlockEntry {
            self.state = State::IndentlessSequenceEntry;
            ev.typ = EventType::SequenceStart;
            ev.tag = tag;
            ev.implicit = implicit;
            return Ok(Some(ev));
        }
        if typ == TokenType::Scalar {
            let plain_implicit = (tag.is_empty() && style == ScalarStyle::Plain) || tag == b"!";
            self.pop_state();
            ev.tag = tag;
            ev.value = value;
            ev.implicit = plain_implicit;
            ev.style = style;
            self.s.skip_token();
            return Ok(Some(ev));
        }
        let next = match typ {
            TokenType::FlowSequenceStart => Some((State::FlowSequenceFirstEntry, EventType::SequenceStart)),
            TokenType::FlowMappingStart => Some((State::FlowMappingFirstKey, EventType::MappingStart)),
            TokenType::BlockSequenceStart if block => Some((State::BlockSequenceFirstEntry, EventType::SequenceStart)),
            TokenType::BlockMappingStart if block => Some((State::BlockMappingFirstKey, EventType::MappingStart)),
            _ => None,
        };
        if let Some((state, etyp)) = next {
            self.state = state;
            ev.typ = etyp;
            ev.tag = tag;
            ev.implicit = implicit;
            return Ok(Some(ev));
        }
        if !ev.anchor.is_empty() || !tag.is_empty() {
            self.pop_state();
            ev.tag = tag;
            ev.implicit = implicit;
            return Ok(Some(ev));
        }
        self.parser_error_context(start, "did not find expected node content", tstart)?;
        Ok(None)
    }

    fn parse_block_sequence_entry(&mut self, first: bool) -> PR {
        if first {
            let (_, start, _) = self.peek_typ()?;
            self.marks.push(start);
            self.s.skip_token();
        }
        let (typ, start, end) = self.peek_typ()?;
        if typ == TokenType::BlockEntry {
            let mark = end;
            self.s.skip_token();
            let (typ, _, _) = self.peek_typ()?;
            if typ != TokenType::BlockEntry && typ != TokenType::BlockEnd {
                self.states.push(State::BlockSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::BlockSequenceEntry;
            return Ok(Some(empty_scalar(mark)));
        }
        if typ == TokenType::BlockEnd {
            self.pop_state();
            self.marks.pop();
            self.s.skip_token();
            return Ok(Some(Event::new(EventType::SequenceEnd, start)));
        }
        let cm = self.marks.pop().unwrap_or_default();
        self.parser_error_context(cm, "did not find expected '-' indicator", start)?;
        Ok(None)
    }

    fn parse_indentless_sequence_entry(&mut self) -> PR {
        let (typ, start, end) = self.peek_typ()?;
        if typ == TokenType::BlockEntry {
            let mark = end;
            self.s.skip_token();
            let (typ, _, _) = self.peek_typ()?;
            if !matches!(typ, TokenType::BlockEntry | TokenType::Key | TokenType::Value | TokenType::BlockEnd) {
                self.states.push(State::IndentlessSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::IndentlessSequenceEntry;
            return Ok(Some(empty_scalar(mark)));
        }
        self.pop_state();
        Ok(Some(Event::new(EventType::SequenceEnd, start)))
    }

    fn parse_block_mapping_key(&mut self, first: bool) -> PR {
        if first {
            let (_, start, _) = self.peek_typ()?;
            self.marks.push(start);
            self.s.skip_token();
        }
        let (typ, start, end) = self.peek_typ()?;
        if typ == TokenType::Key {
            let mark = end;
            self.s.skip_token();
            let (typ, _, _) = self.peek_typ()?;
            if !matches!(typ, TokenType::Key | TokenType::Value | TokenType::BlockEnd) {
                self.states.push(State::BlockMappingValue);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingValue;
            return Ok(Some(empty_scalar(mark)));
        } else if typ == TokenType::BlockEnd {
            self.pop_state();
            self.marks.pop();
            self.s.skip_token();
            return Ok(Some(Event::new(EventType::MappingEnd, start)));
        }
        let cm = self.marks.pop().unwrap_or_default();
        self.parser_error_context(cm, "did not find expected key", start)?;
        Ok(None)
    }

    fn parse_block_mapping_value(&mut self) -> PR {
        let (typ, start, end) = self.peek_typ()?;
        if typ == TokenType::Value {
            let mark = end;
            self.s.skip_token();
            let (typ, _, _) = self.peek_typ()?;
            if !matches!(typ, TokenType::Key | TokenType::Value | TokenType::BlockEnd) {
                self.states.push(State::BlockMappingKey);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingKey;
            return Ok(Some(empty_scalar(mark)));
        }
        self.state = State::BlockMappingKey;
        Ok(Some(empty_scalar(start)))
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> PR {
        if first {
            let (_, start, _) = self.peek_typ()?;
            self.marks.push(start);
            self.s.skip_token();
        }
        let (mut typ, mut start, _) = self.peek_typ()?;
        if typ != TokenType::FlowSequenceEnd {
            if !first {
                if typ == TokenType::FlowEntry {
                    self.s.skip_token();
                    (typ, start, _) = self.peek_typ()?;
                } else {
                    let cm = self.marks.pop().unwrap_or_default();
                    self.parser_error_context(cm, "did not find expected ',' or ']'", start)?;
                }
            }
            if typ == TokenType::Key {
                self.state = State::FlowSequenceEntryMappingKey;
                let mut ev = Event::new(EventType::MappingStart, start);
                ev.implicit = true;
                self.s.skip_token();
                return Ok(Some(ev));
            } else if typ != TokenType::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.pop_state();
        self.marks.pop();
        self.s.skip_token();
        Ok(Some(Event::new(EventType::SequenceEnd, start)))
    }

    fn parse_flow_sequence_entry_mapping_key(&mut self) -> PR {
        let (typ, _, end) = self.peek_typ()?;
        if !matches!(typ, TokenType::Value | TokenType::FlowEntry | TokenType::FlowSequenceEnd) {
            self.states.push(State::FlowSequenceEntryMappingValue);
            return self.parse_node(false, false);
        }
        let mark = end;
        self.s.skip_token();
        self.state = State::FlowSequenceEntryMappingValue;
        Ok(Some(empty_scalar(mark)))
    }

    fn parse_flow_sequence_entry_mapping_value(&mut self) -> PR {
        let (typ, start, _) = self.peek_typ()?;
        if typ == TokenType::Value {
            self.s.skip_token();
            let (typ, _, _) = self.peek_typ()?;
            if typ != TokenType::FlowEntry && typ != TokenType::FlowSequenceEnd {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
        }
        // The empty value takes the mark of the `:` token, not of the one after it.
        self.state = State::FlowSequenceEntryMappingEnd;
        Ok(Some(empty_scalar(start)))
    }

    fn parse_flow_sequence_entry_mapping_end(&mut self) -> PR {
        let (_, start, _) = self.peek_typ()?;
        self.state = State::FlowSequenceEntry;
        Ok(Some(Event::new(EventType::MappingEnd, start)))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> PR {
        if first {
            let (_, start, _) = self.peek_typ()?;
            self.marks.push(start);
            self.s.skip_token();
        }
        let (mut typ, mut start, _) = self.peek_typ()?;
        if typ != TokenType::FlowMappingEnd {
            if !first {
                if typ == TokenType::FlowEntry {
                    self.s.skip_token();
                    (typ, start, _) = self.peek_typ()?;
                } else {
                    let cm = self.marks.pop().unwrap_or_default();
                    self.parser_error_context(cm, "did not find expected ',' or '}'", start)?;
                }
            }
            if typ == TokenType::Key {
                self.s.skip_token();
                let (typ, start, _) = self.peek_typ()?;
                if !matches!(typ, TokenType::Value | TokenType::FlowEntry | TokenType::FlowMappingEnd) {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowMappingValue;
                return Ok(Some(empty_scalar(start)));
            } else if typ != TokenType::FlowMappingEnd {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.pop_state();
        self.marks.pop();
        self.s.skip_token();
        Ok(Some(Event::new(EventType::MappingEnd, start)))
    }

    fn parse_flow_mapping_value(&mut self, empty: bool) -> PR {
        let (typ, start, _) = self.peek_typ()?;
        if empty {
            self.state = State::FlowMappingKey;
            return Ok(Some(empty_scalar(start)));
        }
        if typ == TokenType::Value {
            self.s.skip_token();
            let (typ, start2, _) = self.peek_typ()?;
            if typ != TokenType::FlowEntry && typ != TokenType::FlowMappingEnd {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
            self.state = State::FlowMappingKey;
            return Ok(Some(empty_scalar(start2)));
        }
        self.state = State::FlowMappingKey;
        Ok(Some(empty_scalar(start)))
    }

    fn process_directives(&mut self) -> R {
        let mut version_seen = false;
        loop {
            let t = self.s.peek()?;
            let (typ, start, major, minor) = (t.typ, t.start, t.major, t.minor);
            match typ {
                TokenType::VersionDirective => {
                    if version_seen {
                        return self.parser_error("found duplicate %YAML directive", start);
                    }
                    if major != 1 || minor != 1 {
                        return self.parser_error("found incompatible YAML document", start);
                    }
                    version_seen = true;
                }
                TokenType::TagDirective => {
                    let (handle, prefix) = (t.value.clone(), t.prefix.clone());
                    if self.tag_directives.contains_key(&handle) {
                        return self.parser_error("found duplicate %TAG directive", start);
                    }
                    self.tag_directives.insert(handle, prefix);
                }
                _ => break,
            }
            self.s.skip_token();
        }
        for (h, p) in [(b"!".to_vec(), b"!".to_vec()), (b"!!".to_vec(), b"tag:yaml.org,2002:".to_vec())] {
            self.tag_directives.entry(h).or_insert(p);
        }
        Ok(())
    }
}

fn empty_scalar(mark: Mark) -> Event {
    let mut ev = Event::new(EventType::Scalar, mark);
    ev.implicit = true;
    ev
}
