//! Templates: parts streamed into one string.

use super::*;

impl<'a> Machine<'a> {
    pub(super) fn template(&mut self, parts: &[PartSite]) -> Value {
        let mut buf = self.s.text_bufs.pop().unwrap_or_default();
        buf.clear();
        let mark = self.s.diags.len();
        let mut known = true;
        // The text before the first unknown part: the unknown result's
        // known prefix.
        let mut prefix_len = None;
        // After an error no more text is kept (the value that goes with
        // the diagnostics is the text before the failing part).
        let mut kept_len = None;
        for part in parts {
            if self.text_over_budget(buf.len()) {
                break;
            }
            let start = buf.len();
            self.stream_part(part, &mut buf, &mut known);
            if !known && prefix_len.is_none() {
                prefix_len = Some(start);
            }
            if kept_len.is_none() && self.s.diags.len() > mark && self.errors_since(mark) {
                kept_len = Some(start);
            }
            if let Some(k) = kept_len {
                buf.truncate(k);
            }
        }
        let v = if self.s.aborted.is_some() {
            dynamic()
        } else if !known {
            self.unknown_template(&buf[..prefix_len.unwrap_or(0)], mark)
        } else {
            self.grow(buf.len());
            Value::string(&buf)
        };
        // Keep buffers of ordinary size for the next template.
        if buf.capacity() <= 1 << 16 {
            self.s.text_bufs.push(buf);
        }
        v
    }

    /// The unknown result of a template: never null, and starting with the
    /// text of the parts before the unknown one, unless a part failed.
    #[cold]
    pub(super) fn unknown_template(&mut self, prefix: &str, mark: usize) -> Value {
        let mut b = Value::unknown(Type::String).refine();
        if !prefix.is_empty() && !self.errors_since(mark) {
            b.string_prefix_full(&runtime::known_prefix::template_known_prefix(prefix));
        }
        b.not_null();
        b.into_value()
    }

    /// Appends template parts to `buf`. Parts that are themselves string
    /// builders (nested templates, `%{if}` and `%{for}` directives) write
    /// straight into `buf` instead of making intermediate strings and
    /// tuples; the values and diagnostics are the same, because such parts
    /// always produce a string (or an unknown string).
    pub(super) fn stream_parts(&mut self, parts: &[PartSite], buf: &mut String, known: &mut bool) {
        for part in parts {
            if self.text_over_budget(buf.len()) {
                return;
            }
            self.stream_part(part, buf, known);
        }
    }

    /// Appends one template part to `buf`: a literal or a path holding a
    /// string (most parts) inline, in the caller's loop; the others out of
    /// line.
    #[inline(always)]
    pub(super) fn stream_part(&mut self, part: &PartSite, buf: &mut String, known: &mut bool) {
        if let PartKind::Value(b) = &part.kind {
            if b.start == b.end {
                if let Some(Value::String(s)) = self.peek(b.out) {
                    buf.push_str(s.as_str());
                    return;
                }
            }
        }
        self.stream_part_other(part, buf, known);
    }

    #[inline(never)]
    pub(super) fn stream_part_other(&mut self, part: &PartSite, buf: &mut String, known: &mut bool) {
        match &part.kind {
            PartKind::Value(b) => {
                if b.start == b.end {
                    if let Some(v) = self.peek(b.out) {
                        let r = crate::ops::push_template_part(v, buf);
                        self.template_part_done(r, part.span, known);
                        return;
                    }
                }
                let v = self.block(b);
                let r = crate::ops::push_template_part(&v, buf);
                self.template_part_done(r, part.span, known);
            }
            PartKind::Nested(inner) => {
                if self.tick() {
                    self.nested(|m| m.stream_parts(inner, buf, known));
                }
            }
            PartKind::Cond(c, t, f) => {
                // The reference evaluates both branches and keeps only the
                // selected one's value and diagnostics; two strings always
                // unify, so running the selected branch alone (after the
                // condition) is equivalent.
                if !self.tick() {
                    return;
                }
                match self.condition_choice(c) {
                    Ok(Some(true)) => self.nested(|m| m.stream_part(t, buf, known)),
                    Ok(Some(false)) => self.nested(|m| m.stream_part(f, buf, known)),
                    Ok(None) | Err(()) => *known = false,
                }
            }
            PartKind::For(f, body) => {
                if self.tick() && self.tick() {
                    self.nested(|m| m.stream_for(f, body, buf, known));
                }
            }
        }
    }

    /// Takes the outcome of appending one interpolation to a template.
    /// (Always inlined: the common outcome, a string appended, is one test;
    /// out of line, the large result travels through memory.)
    #[inline(always)]
    pub(super) fn template_part_done(&mut self, r: Result<bool, crate::ops::OpDiag>, span: Span, known: &mut bool) {
        match r {
            Ok(true) => {}
            Ok(false) => *known = false,
            Err(d) => self.template_part_failed(d, span),
        }
    }

    #[cold]
    pub(super) fn template_part_failed(&mut self, d: crate::ops::OpDiag, span: Span) {
        self.push(d.to_diagnostic(|blame| (blame == Blame::Operand(0)).then_some(span)));
    }

    /// A template `%{for}` whose body is a string builder, appended element
    /// by element (the reference builds the tuple, then joins it).
    pub(super) fn stream_for(&mut self, f: &ForSite, body: &PartSite, buf: &mut String, known: &mut bool) {
        let Some(coll) = self.for_collection(f) else {
            *known = false;
            return;
        };
        // Only the `if` clause's bookkeeping is used: the body streams.
        let mut steps = crate::ops::ForCollector::new(crate::ops::ForKind::Tuple);
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return;
            }
            if !self.for_step(f, &coll, i, &mut steps) {
                continue;
            }
            self.stream_part(body, buf, known);
            if self.text_over_budget(buf.len()) {
                return;
            }
        }
        if !steps.is_known() {
            *known = false;
        }
    }

    pub(super) fn template_join(&mut self, t: &Value, span: Span) -> Value {
        let v = self.op_result(crate::ops::template_join(t), |_| Some(span));
        let len = v.as_str().map_or(0, str::len);
        if !self.grow(len) {
            return dynamic();
        }
        v
    }
}
