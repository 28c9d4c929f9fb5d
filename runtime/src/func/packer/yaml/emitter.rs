//! go-cty-yaml's emitter, for the events its `Marshal` produces: an
//! implicit document holding block collections (flow `[]`/`{}` when
//! empty) and scalars that are plain (numbers, bools, null), double-quoted
//! (strings) or literal (strings with a line break). Layout, quoting
//! fallbacks, line folding at 80 columns and the open-ended `...` marker
//! are libyaml's, as go-yaml v2 ported them.

use super::scanner::ScalarStyle;
use super::width;

#[derive(Clone, Debug)]
pub enum Ev {
    StreamStart,
    DocumentStart,
    Scalar(Vec<u8>, ScalarStyle),
    SequenceStart,
    SequenceEnd,
    MappingStart,
    MappingEnd,
    DocumentEnd,
    StreamEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    StreamStart,
    FirstDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    FlowSequenceFirstItem,
    FlowSequenceItem,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingSimpleValue,
    FlowMappingValue,
    BlockSequenceFirstItem,
    BlockSequenceItem,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingSimpleValue,
    BlockMappingValue,
    End,
}

#[derive(Default)]
struct ScalarData {
    value: Vec<u8>,
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
    style: Option<ScalarStyle>,
}

struct Emitter<'e> {
    events: &'e [Ev],
    head: usize,
    out: Vec<u8>,
    column: usize,
    whitespace: bool,
    indention: bool,
    open_ended: bool,
    indent: isize,
    indents: Vec<isize>,
    flow_level: usize,
    state: St,
    states: Vec<St>,
    root_context: bool,
    mapping_context: bool,
    simple_key_context: bool,
    scalar: ScalarData,
}

const BEST_INDENT: isize = 2;
const BEST_WIDTH: usize = 80;

fn at(v: &[u8], i: usize) -> u8 {
    v.get(i).copied().unwrap_or(0)
}
fn is_space(v: &[u8], i: usize) -> bool {
    at(v, i) == b' '
}
fn is_blank(v: &[u8], i: usize) -> bool {
    matches!(at(v, i), b' ' | b'\t')
}
fn is_break(v: &[u8], i: usize) -> bool {
    let b = at(v, i);
    b == b'\r'
        || b == b'\n'
        || (b == 0xC2 && at(v, i + 1) == 0x85)
        || (b == 0xE2 && at(v, i + 1) == 0x80 && (at(v, i + 2) == 0xA8 || at(v, i + 2) == 0xA9))
}
fn is_blankz(v: &[u8], i: usize) -> bool {
    is_blank(v, i) || is_break(v, i) || at(v, i) == 0
}
fn is_printable(v: &[u8], i: usize) -> bool {
    let b = at(v, i);
    let b1 = at(v, i + 1);
    let b2 = at(v, i + 2);
    b == 0x0A
        || (0x20..=0x7E).contains(&b)
        || (b == 0xC2 && b1 >= 0xA0)
        || (b > 0xC2 && b < 0xED)
        || (b == 0xED && b1 < 0xA0)
        || b == 0xEE
        || (b == 0xEF && !(b1 == 0xBB && b2 == 0xBF) && !(b1 == 0xBF && (b2 == 0xBE || b2 == 0xBF)))
}
/// libyaml's check looks at the start of the value, whatever `i` is.
fn is_bom_start(v: &[u8]) -> bool {
    v.len() >= 3 && v[0] == 0xEF && v[1] == 0xBB && v[2] == 0xBF
}

/// Emits the events (a complete stream) as go-cty-yaml does.
pub fn emit(events: &[Ev]) -> Vec<u8> {
    let mut e = Emitter {
        events,
        head: 0,
        out: Vec::new(),
        column: 0,
        whitespace: false,
        indention: false,
        open_ended: false,
        indent: 0,
        indents: Vec::new(),
        flow_level: 0,
        state: St::StreamStart,
        states: Vec::new(),
        root_context: false,
        mapping_context: false,
        simple_key_context: false,
        scalar: ScalarData::default(),
    };
    while e.head < events.len() {
        let ev = &events[e.head];
        e.analyze_event(ev);
        e.state_machine(ev);
        e.head += 1;
    }
    e.out
}

impl Emitter<'_> {
    fn put(&mut self, b: u8) {
        self.out.push(b);
        self.column += 1;
    }
    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }
    /// Writes the character at `*i` of `s`.
    fn write(&mut self, s: &[u8], i: &mut usize) {
        let w = width(s[*i]).max(1);
        let end = (*i + w).min(s.len());
        self.out.extend_from_slice(&s[*i..end]);
        self.column += 1;
        *i += w;
    }
    fn write_all(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            self.write(s, &mut i);
        }
    }
    fn write_break(&mut self, s: &[u8], i: &mut usize) {
        if s[*i] == b'\n' {
            self.put_break();
            *i += 1;
        } else {
            self.write(s, i);
            self.column = 0;
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }
    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }
    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(St::End);
    }

    fn state_machine(&mut self, ev: &Ev) {
        match self.state {
            St::StreamStart => {
                self.indent = -1;
                self.column = 0;
                self.whitespace = true;
                self.indention = true;
                self.state = St::FirstDocumentStart;
            }
            St::FirstDocumentStart => self.emit_document_start(ev),
            St::DocumentStart => self.emit_document_start(ev),
            St::DocumentContent => {
                self.states.push(St::DocumentEnd);
                self.emit_node(ev, true, false, false);
            }
            St::DocumentEnd => {
                self.write_indent();
                self.state = St::DocumentStart;
            }
            St::FlowSequenceFirstItem => self.emit_flow_sequence_item(ev, true),
            St::FlowSequenceItem => self.emit_flow_sequence_item(ev, false),
            St::FlowMappingFirstKey => self.emit_flow_mapping_key(ev, true),
            St::FlowMappingKey => self.emit_flow_mapping_key(ev, false),
            St::FlowMappingSimpleValue => self.emit_flow_mapping_value(ev, true),
            St::FlowMappingValue => self.emit_flow_mapping_value(ev, false),
            St::BlockSequenceFirstItem => self.emit_block_sequence_item(ev, true),
            St::BlockSequenceItem => self.emit_block_sequence_item(ev, false),
            St::BlockMappingFirstKey => self.emit_block_mapping_key(ev, true),
            St::BlockMappingKey => self.emit_block_mapping_key(ev, false),
            St::BlockMappingSimpleValue => self.emit_block_mapping_value(ev, true),
            St::BlockMappingValue => self.emit_block_mapping_value(ev, false),
            St::End => {}
        }
    }

    fn emit_document_start(&mut self, ev: &Ev) {
        match ev {
            Ev::DocumentStart => {
                // Implicit, without directives: only a later document
                // would write "---".
                if self.state == St::DocumentStart {
                    self.write_indent();
                    self.write_indicator(b"---", true, false, false);
                }
                self.state = St::DocumentContent;
            }
            Ev::StreamEnd => {
                if self.open_ended {
                    self.write_indicator(b"...", true, false, false);
                    self.write_indent();
                }
                self.state = St::End;
            }
            _ => {}
        }
    }

    fn emit_flow_sequence_item(&mut self, ev: &Ev, first: bool) {
        if first {
            self.write_indicator(b"[", true, true, false);
            self.increase_indent(true, false);
            self.flow_level += 1;
        }
        if let Ev::SequenceEnd = ev {
            self.flow_level -= 1;
            self.pop_indent();
            self.write_indicator(b"]", false, false, false);
            self.pop_state();
            return;
        }
        if !first {
            self.write_indicator(b",", false, false, false);
        }
        if self.column > BEST_WIDTH {
            self.write_indent();
        }
        self.states.push(St::FlowSequenceItem);
        self.emit_node(ev, false, false, false);
    }

    fn emit_flow_mapping_key(&mut self, ev: &Ev, first: bool) {
        if first {
            self.write_indicator(b"{", true, true, false);
            self.increase_indent(true, false);
            self.flow_level += 1;
        }
        if let Ev::MappingEnd = ev {
            self.flow_level -= 1;
            self.pop_indent();
            self.write_indicator(b"}", false, false, false);
            self.pop_state();
            return;
        }
        if !first {
            self.write_indicator(b",", false, false, false);
        }
        if self.column > BEST_WIDTH {
            self.write_indent();
        }
        if self.check_simple_key() {
            self.states.push(St::FlowMappingSimpleValue);
            self.emit_node(ev, false, true, true);
            return;
        }
        self.write_indicator(b"?", true, false, false);
        self.states.push(St::FlowMappingValue);
        self.emit_node(ev, false, true, false);
    }

    fn emit_flow_mapping_value(&mut self, ev: &Ev, simple: bool) {
        if simple {
            self.write_indicator(b":", false, false, false);
        } else {
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            self.write_indicator(b":", true, false, false);
        }
        self.states.push(St::FlowMappingKey);
        self.emit_node(ev, false, true, false);
    }

    fn emit_block_sequence_item(&mut self, ev: &Ev, first: bool) {
        if first {
            let indentless = self.mapping_context && !self.indention;
            self.increase_indent(false, indentless);
        }
        if let Ev::SequenceEnd = ev {
            self.pop_indent();
            self.pop_state();
            return;
        }
        self.write_indent();
        self.write_indicator(b"-", true, false, true);
        self.states.push(St::BlockSequenceItem);
        self.emit_node(ev, false, false, false);
    }

    fn emit_block_mapping_key(&mut self, ev: &Ev, first: bool) {
        if first {
            self.increase_indent(false, false);
        }
        if let Ev::MappingEnd = ev {
            self.pop_indent();
            self.pop_state();
            return;
        }
        self.write_indent();
        if self.check_simple_key() {
            self.states.push(St::BlockMappingSimpleValue);
            self.emit_node(ev, false, true, true);
            return;
        }
        self.write_indicator(b"?", true, false, true);
        self.states.push(St::BlockMappingValue);
        self.emit_node(ev, false, true, false);
    }

    fn emit_block_mapping_value(&mut self, ev: &Ev, simple: bool) {
        if simple {
            self.write_indicator(b":", false, false, false);
        } else {
            self.write_indent();
            self.write_indicator(b":", true, false, true);
        }
        self.states.push(St::BlockMappingKey);
        self.emit_node(ev, false, true, false);
    }

    fn emit_node(&mut self, ev: &Ev, root: bool, mapping: bool, simple_key: bool) {
        self.root_context = root;
        self.mapping_context = mapping;
        self.simple_key_context = simple_key;
        match ev {
            Ev::Scalar(..) => self.emit_scalar(),
            Ev::SequenceStart => {
                if self.flow_level > 0 || self.check_empty(true) {
                    self.state = St::FlowSequenceFirstItem;
                } else {
                    self.state = St::BlockSequenceFirstItem;
                }
            }
            Ev::MappingStart => {
                if self.flow_level > 0 || self.check_empty(false) {
                    self.state = St::FlowMappingFirstKey;
                } else {
                    self.state = St::BlockMappingFirstKey;
                }
            }
            _ => {}
        }
    }

    fn check_empty(&self, sequence: bool) -> bool {
        match (self.events.get(self.head), self.events.get(self.head + 1)) {
            (Some(Ev::SequenceStart), Some(Ev::SequenceEnd)) => sequence,
            (Some(Ev::MappingStart), Some(Ev::MappingEnd)) => !sequence,
            _ => false,
        }
    }

    fn check_simple_key(&self) -> bool {
        match self.events.get(self.head) {
            Some(Ev::Scalar(..)) => !self.scalar.multiline && self.scalar.value.len() <= 128,
            Some(Ev::SequenceStart) => self.check_empty(true),
            Some(Ev::MappingStart) => self.check_empty(false),
            _ => false,
        }
    }

    fn emit_scalar(&mut self) {
        self.select_scalar_style();
        self.increase_indent(true, false);
        self.process_scalar();
        self.pop_indent();
        self.pop_state();
    }

    fn select_scalar_style(&mut self) {
        let requested = match self.events.get(self.head) {
            Some(Ev::Scalar(_, s)) => *s,
            _ => ScalarStyle::Plain,
        };
        let mut style = requested;
        if self.simple_key_context && self.scalar.multiline {
            style = ScalarStyle::DoubleQuoted;
        }
        if style == ScalarStyle::Plain {
            if (self.flow_level > 0 && !self.scalar.flow_plain_allowed) || (self.flow_level == 0 && !self.scalar.block_plain_allowed) {
                style = ScalarStyle::SingleQuoted;
            }
            if self.scalar.value.is_empty() && (self.flow_level > 0 || self.simple_key_context) {
                style = ScalarStyle::SingleQuoted;
            }
        }
        if style == ScalarStyle::SingleQuoted && !self.scalar.single_quoted_allowed {
            style = ScalarStyle::DoubleQuoted;
        }
        if (style == ScalarStyle::Literal || style == ScalarStyle::Folded)
            && (!self.scalar.block_allowed || self.flow_level > 0 || self.simple_key_context)
        {
            style = ScalarStyle::DoubleQuoted;
        }
        self.scalar.style = Some(style);
    }

    fn process_scalar(&mut self) {
        let value = std::mem::take(&mut self.scalar.value);
        let allow_breaks = !self.simple_key_context;
        match self.scalar.style.unwrap_or(ScalarStyle::Plain) {
            ScalarStyle::Plain => self.write_plain(&value, allow_breaks),
            ScalarStyle::SingleQuoted => self.write_single_quoted(&value, allow_breaks),
            ScalarStyle::DoubleQuoted => self.write_double_quoted(&value, allow_breaks),
            ScalarStyle::Literal | ScalarStyle::Folded => self.write_literal(&value),
        }
        self.scalar.value = value;
    }

    fn analyze_event(&mut self, ev: &Ev) {
        self.scalar.value.clear();
        if let Ev::Scalar(v, _) = ev {
            self.analyze_scalar(v);
        }
    }

    fn analyze_scalar(&mut self, value: &[u8]) {
        let sd = &mut self.scalar;
        sd.value = value.to_vec();
        if value.is_empty() {
            sd.multiline = false;
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = true;
            sd.single_quoted_allowed = true;
            sd.block_allowed = false;
            return;
        }
        let mut block_indicators = false;
        let mut flow_indicators = false;
        let mut line_breaks = false;
        let mut special_characters = false;
        let mut leading_space = false;
        let mut leading_break = false;
        let mut trailing_space = false;
        let mut trailing_break = false;
        let mut break_space = false;
        let mut space_break = false;
        let mut previous_space = false;
        let mut previous_break = false;
        if value.len() >= 3 && (value.starts_with(b"---") || value.starts_with(b"...")) {
            block_indicators = true;
            flow_indicators = true;
        }
        let mut preceded_by_whitespace = true;
        let mut i = 0;
        while i < value.len() {
            let w = width(value[i]).max(1);
            let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
            let c = value[i];
            if i == 0 {
                match c {
                    b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    b'?' | b':' => {
                        flow_indicators = true;
                        if followed_by_whitespace {
                            block_indicators = true;
                        }
                    }
                    b'-' if followed_by_whitespace => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    _ => {}
                }
            } else {
                match c {
                    b',' | b'?' | b'[' | b']' | b'{' | b'}' => flow_indicators = true,
                    b':' => {
                        flow_indicators = true;
                        if followed_by_whitespace {
                            block_indicators = true;
                        }
                    }
                    b'#' if preceded_by_whitespace => {
                        flow_indicators = true;
                        block_indicators = true;
                    }
                    _ => {}
                }
            }
            if !is_printable(value, i) {
                special_characters = true;
            }
            if is_space(value, i) {
                if i == 0 {
                    leading_space = true;
                }
                if i + w == value.len() {
                    trailing_space = true;
                }
                if previous_break {
                    break_space = true;
                }
                previous_space = true;
                previous_break = false;
            } else if is_break(value, i) {
                line_breaks = true;
                if i == 0 {
                    leading_break = true;
                }
                if i + w == value.len() {
                    trailing_break = true;
                }
                if previous_space {
                    space_break = true;
                }
                previous_space = false;
                previous_break = true;
            } else {
                previous_space = false;
                previous_break = false;
            }
            preceded_by_whitespace = is_blankz(value, i);
            i += w;
        }
        sd.multiline = line_breaks;
        sd.flow_plain_allowed = true;
        sd.block_plain_allowed = true;
        sd.single_quoted_allowed = true;
        sd.block_allowed = true;
        if leading_space || leading_break || trailing_space || trailing_break {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
        }
        if trailing_space {
            sd.block_allowed = false;
        }
        if break_space {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
            sd.single_quoted_allowed = false;
        }
        if space_break || special_characters {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
            sd.single_quoted_allowed = false;
            sd.block_allowed = false;
        }
        if line_breaks {
            sd.flow_plain_allowed = false;
            sd.block_plain_allowed = false;
        }
        if flow_indicators {
            sd.flow_plain_allowed = false;
        }
        if block_indicators {
            sd.block_plain_allowed = false;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, indicator: &[u8], need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(b' ');
        }
        self.write_all(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    fn write_plain(&mut self, value: &[u8], allow_breaks: bool) {
        if !self.whitespace {
            self.put(b' ');
        }
        let mut spaces = false;
        let mut breaks = false;
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !is_space(value, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && value[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
        if self.root_context {
            self.open_ended = true;
        }
    }

    fn write_single_quoted(&mut self, value: &[u8], allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let mut spaces = false;
        let mut breaks = false;
        let mut i = 0;
        while i < value.len() {
            if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i < value.len() - 1 && !is_space(value, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else if is_break(value, i) {
                if !breaks && value[i] == b'\n' {
                    self.put_break();
                }
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if value[i] == b'\'' {
                    self.put(b'\'');
                }
                self.write(value, &mut i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, value: &[u8], allow_breaks: bool) {
        let mut spaces = false;
        self.write_indicator(b"\"", true, false, false);
        let bom = is_bom_start(value);
        let mut i = 0;
        while i < value.len() {
            let c = value[i];
            if !is_printable(value, i) || bom || is_break(value, i) || c == b'"' || c == b'\\' {
                let w = width(c).max(1);
                let v = std::str::from_utf8(&value[i..(i + w).min(value.len())])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map(|c| c as u32)
                    .unwrap_or(c as u32);
                i += w;
                self.put(b'\\');
                match v {
                    0x00 => self.put(b'0'),
                    0x07 => self.put(b'a'),
                    0x08 => self.put(b'b'),
                    0x09 => self.put(b't'),
                    0x0A => self.put(b'n'),
                    0x0B => self.put(b'v'),
                    0x0C => self.put(b'f'),
                    0x0D => self.put(b'r'),
                    0x1B => self.put(b'e'),
                    0x22 => self.put(b'"'),
                    0x5C => self.put(b'\\'),
                    0x85 => self.put(b'N'),
                    0xA0 => self.put(b'_'),
                    0x2028 => self.put(b'L'),
                    0x2029 => self.put(b'P'),
                    _ => {
                        let digits = if v <= 0xFF {
                            self.put(b'x');
                            2
                        } else if v <= 0xFFFF {
                            self.put(b'u');
                            4
                        } else {
                            self.put(b'U');
                            8
                        };
                        for k in (0..digits).rev() {
                            let d = ((v >> (k * 4)) & 0x0F) as u8;
                            self.put(if d < 10 { d + b'0' } else { d + b'A' - 10 });
                        }
                    }
                }
                spaces = false;
            } else if is_space(value, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i < value.len() - 1 {
                    self.write_indent();
                    if is_space(value, i + 1) {
                        self.put(b'\\');
                    }
                    i += 1;
                } else {
                    self.write(value, &mut i);
                }
                spaces = true;
            } else {
                self.write(value, &mut i);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_block_scalar_hints(&mut self, value: &[u8]) {
        if is_space(value, 0) || is_break(value, 0) {
            let hint = [b'0' + BEST_INDENT as u8];
            self.write_indicator(&hint, false, false, false);
        }
        self.open_ended = false;
        let mut chomp: Option<u8> = None;
        if value.is_empty() {
            chomp = Some(b'-');
        } else {
            let mut i = value.len() - 1;
            while i > 0 && value[i] & 0xC0 == 0x80 {
                i -= 1;
            }
            if !is_break(value, i) {
                chomp = Some(b'-');
            } else if i == 0 {
                chomp = Some(b'+');
                self.open_ended = true;
            } else {
                i -= 1;
                while i > 0 && value[i] & 0xC0 == 0x80 {
                    i -= 1;
                }
                if is_break(value, i) {
                    chomp = Some(b'+');
                    self.open_ended = true;
                }
            }
        }
        if let Some(c) = chomp {
            self.write_indicator(&[c], false, false, false);
        }
    }

    fn write_literal(&mut self, value: &[u8]) {
        self.write_indicator(b"|", true, false, false);
        self.write_block_scalar_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut i = 0;
        while i < value.len() {
            if is_break(value, i) {
                self.write_break(value, &mut i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write(value, &mut i);
                self.indention = false;
                breaks = false;
            }
        }
    }
}
