package gltfio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxJSONDepth bounds the nesting depth of a glTF JSON document. Real
// assets nest a dozen levels; a hostile file nests thousands to exhaust
// the stack of recursive readers.
const MaxJSONDepth = 256

// Object is a JSON object that remembers the order of its members.
// Values are *Object, []any, json.Number, string, bool or nil.
type Object struct {
	keys []string
	vals map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{vals: map[string]any{}} }

// Get returns the member k and whether it is present.
func (o *Object) Get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// Set sets member k, appending it if it is new.
func (o *Object) Set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// Delete removes member k.
func (o *Object) Delete(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the member names in order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Len returns the number of members.
func (o *Object) Len() int { return len(o.keys) }

// Obj returns member k as an object, or nil.
func (o *Object) Obj(k string) *Object {
	v, _ := o.Get(k)
	r, _ := v.(*Object)
	return r
}

// Arr returns member k as an array, or nil.
func (o *Object) Arr(k string) []any {
	v, _ := o.Get(k)
	r, _ := v.([]any)
	return r
}

// Int returns member k as an integer and whether it is one.
func (o *Object) Int(k string) (int, bool) {
	v, ok := o.Get(k)
	if !ok {
		return 0, false
	}
	return asInt(v)
}

func asInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		f, err := n.Float64()
		if err != nil || f != float64(int64(f)) {
			return 0, false
		}
		i = int64(f)
	}
	if i < -1<<53 || i > 1<<53 {
		return 0, false
	}
	return int(i), true
}

// MarshalJSON writes the object with its members in order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, o, "", ""); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ParseJSON parses one JSON document into an ordered tree. It refuses
// invalid UTF-8, duplicate keys, nesting deeper than MaxJSONDepth, arrays
// longer than DefaultMaxElements, and trailing data.
func ParseJSON(data []byte) (*Object, error) {
	return parseJSON(data, DefaultMaxElements, DefaultMaxValues)
}

func parseJSON(data []byte, maxElements, maxValues int) (*Object, error) {
	p := newParser(data, maxElements)
	p.maxValues = maxValues
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON document")
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, errors.New("the JSON document is not an object")
	}
	return o, nil
}

// parser reads a JSON document token by token, checking as it goes that
// every token's bytes are valid UTF-8 (encoding/json would silently
// replace them), that no array or object outgrows maxElements and that
// the document holds at most maxValues values, members' keys included
// (0: no limit).
// It keeps the path to the value being read as a stack of segments and
// spells it out only for an error.
type parser struct {
	data        []byte
	dec         *json.Decoder
	maxElements int
	maxValues   int
	values      int // values and keys read so far, weighted (see charge)
	extensions  int // how many "extensions" members the value being read is in
	path        []segment
}

// ExtensionValueWeight is what a value inside an "extensions" member
// counts against the value budget: extensions (physics, above all) are
// decoded again, into the physics model and by the validator's generic
// maps, so each costs about three times what a plain value costs (an
// input of 99,990 OMI colliders, 2.1 million values, peaked at 933 MB
// when every value counted once).
const ExtensionValueWeight = 3

// charge counts one value or key against the budget.
func (p *parser) charge() error {
	w := 1
	if p.extensions > 0 {
		w = ExtensionValueWeight
	}
	if p.values += w; p.maxValues > 0 && p.values > p.maxValues {
		return fmt.Errorf("%s: more than %d JSON values in the document (the limit on its parsed size; values in extensions count %d times)", p.where(), p.maxValues, ExtensionValueWeight)
	}
	return nil
}

// segment is one step of a JSON path: a member key, or an array index
// when key is empty and index ≥ 0.
type segment struct {
	key   string
	index int
}

func newParser(data []byte, maxElements int) *parser {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return &parser{data: data, dec: dec, maxElements: maxElements}
}

// where spells out the current path (a.b[2].c), shortened in the middle
// when long, or "(root)".
func (p *parser) where() string {
	var b strings.Builder
	for _, s := range p.path {
		if s.index >= 0 {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		b.WriteString("." + s.key)
	}
	w := pathOrRoot(b.String())
	if len(w) > 100 {
		w = strings.ToValidUTF8(w[:60]+"…"+w[len(w)-30:], "")
	}
	return w
}

// token reads the next token.
func (p *parser) token() (json.Token, error) {
	start := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%s: invalid JSON: %w", p.where(), err)
	}
	if raw := p.data[start:p.dec.InputOffset()]; !utf8.Valid(raw) {
		return nil, fmt.Errorf("%s: invalid UTF-8 near byte %d (glTF JSON must be UTF-8)", p.where(), start)
	}
	return tok, nil
}

func (p *parser) value() (any, error) {
	if len(p.path) > MaxJSONDepth {
		return nil, fmt.Errorf("%s: JSON nested deeper than %d levels", p.where(), MaxJSONDepth)
	}
	if err := p.charge(); err != nil {
		return nil, err
	}
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject()
			for i := 0; p.dec.More(); i++ {
				if i == p.maxElements && p.maxElements > 0 {
					return nil, fmt.Errorf("%s: more than %d members (the limit on any object)", p.where(), p.maxElements)
				}
				if err := p.charge(); err != nil {
					return nil, err
				}
				kt, err := p.token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("%s: invalid JSON object key", p.where())
				}
				if _, dup := o.vals[k]; dup {
					return nil, fmt.Errorf("%s: duplicate key %q", p.where(), k)
				}
				p.path = append(p.path, segment{key: k, index: -1})
				if k == "extensions" {
					p.extensions++
				}
				v, err := p.value()
				if err != nil {
					return nil, err
				}
				if k == "extensions" {
					p.extensions--
				}
				p.path = p.path[:len(p.path)-1]
				o.Set(k, v)
			}
			if _, err := p.token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := []any{}
			for i := 0; p.dec.More(); i++ {
				if i == p.maxElements && p.maxElements > 0 {
					return nil, fmt.Errorf("%s: more than %d elements (the limit on any array)", p.where(), p.maxElements)
				}
				p.path = append(p.path, segment{index: i})
				v, err := p.value()
				if err != nil {
					return nil, err
				}
				p.path = p.path[:len(p.path)-1]
				a = append(a, v)
			}
			if _, err := p.token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("%s: unexpected %v", p.where(), t)
	default:
		return t, nil // json.Number, string, bool, nil
	}
}

func pathOrRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p[1:]
}

// Encode writes v as JSON. With indent != "" it is pretty-printed.
func Encode(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, v, "", indent); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MaxIndentDepth bounds the indentation of pretty-printed output: values
// nested deeper are written compact. Real documents nest about ten
// levels; arrays nested 250 deep in extras would otherwise make each
// line hundreds of spaces long, turning a 1.5 MB file into 380 MB.
const MaxIndentDepth = 16

func writeValue(b *bytes.Buffer, v any, prefix, indent string) error {
	if indent != "" && len(prefix) >= MaxIndentDepth*len(indent) {
		indent, prefix = "", ""
	}
	nl := func(p string) {
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(p)
		}
	}
	switch t := v.(type) {
	case *Object:
		if t == nil || len(t.keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		inner := prefix + indent
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(inner)
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			if err := writeValue(b, t.vals[k], inner, indent); err != nil {
				return err
			}
		}
		nl(prefix)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		inner := prefix + indent
		flat := indent != "" && allScalars(t)
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
				if flat {
					b.WriteByte(' ')
				}
			}
			if !flat {
				nl(inner)
			}
			if err := writeValue(b, e, inner, indent); err != nil {
				return err
			}
		}
		if !flat {
			nl(prefix)
		}
		b.WriteByte(']')
	case json.Number:
		b.WriteString(string(t))
	default:
		j, err := json.Marshal(t)
		if err != nil {
			return err
		}
		b.Write(j)
	}
	return nil
}

func allScalars(a []any) bool {
	for _, e := range a {
		switch e.(type) {
		case *Object, []any:
			return false
		}
	}
	return true
}

// FromGo converts a value produced by encoding/json (via json.Marshal of
// any Go value) into tree form, keeping the member order of the JSON text.
func FromGo(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return FromJSON(raw)
}

// FromJSON parses any JSON value into tree form.
func FromJSON(raw []byte) (any, error) {
	return newParser(raw, 0).value()
}

// Num returns a JSON number for f, formatted the shortest way that
// round-trips.
func Num(f float64) json.Number { return json.Number(strconv.FormatFloat(f, 'g', -1, 64)) }

// IntNum returns a JSON number for i.
func IntNum(i int) json.Number { return json.Number(strconv.Itoa(i)) }

// Equal reports whether two tree values are equal as JSON values: objects
// regardless of member order, numbers by value.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.keys {
			yv, ok := y.vals[k]
			if !ok || !Equal(x.vals[k], yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fx, e1 := x.Float64()
		fy, e2 := y.Float64()
		return e1 == nil && e2 == nil && fx == fy
	default:
		return a == b
	}
}

// shallowCopy returns a copy of o whose members can be set and deleted
// without changing o; the values are o's own.
func shallowCopy(o *Object) *Object {
	c := &Object{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = v
	}
	return c
}

// cloneValue returns a deep copy of v (scalars are immutable and shared).
func cloneValue(v any) any {
	switch t := v.(type) {
	case *Object:
		if t == nil {
			return t
		}
		c := &Object{keys: append([]string(nil), t.keys...), vals: make(map[string]any, len(t.vals))}
		for k, x := range t.vals {
			c.vals[k] = cloneValue(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = cloneValue(x)
		}
		return c
	}
	return v
}
