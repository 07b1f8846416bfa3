package assembly

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// mergedLevels names the top-level members the parts share, with how many
// levels of each are merged: "paths" by path, "components" by section and
// then by name.
var mergedLevels = map[string]int{"paths": 1, "components": 2}

// member is one name and value of a JSON object: the value's bytes as the
// part wrote them, or, for a merged member, its members.
type member struct {
	key    string
	raw    json.RawMessage
	merged bool
	inner  object
}

// object is a JSON object's members in the order they were written.
type object []member

// parseTop reads a part, parsing the merged members as deep as they merge.
func parseTop(b []byte) (object, error) {
	return parseObject(b, func(key string) int { return mergedLevels[key] })
}

// parseObject reads the JSON object b, keeping its members in order; levels
// says, per key, how many levels of that member to parse into members.
func parseObject(b []byte, levels func(string) int) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var o object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		m := member{key: key}
		if err := dec.Decode(&m.raw); err != nil {
			return nil, fmt.Errorf("%q: %w", key, err)
		}
		if n := levels(key); n > 0 {
			m.merged = true
			if m.inner, err = parseObject(m.raw, func(string) int { return n - 1 }); err != nil {
				return nil, fmt.Errorf("%q: %w", key, err)
			}
		}
		o = append(o, m)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the object")
	}
	return o, nil
}

// outside returns the first member not named in keys, "" when none is.
func (o object) outside(keys ...string) string {
	for _, m := range o {
		if !slices.Contains(keys, m.key) {
			return m.key
		}
	}
	return ""
}

// merge adds part's members to o after its own: a merged member joins its
// namesake's members, any other name o already has is an error.
func (o *object) merge(part object) error {
	for _, m := range part {
		i := slices.IndexFunc(*o, func(have member) bool { return have.key == m.key })
		switch {
		case i < 0:
			*o = append(*o, m)
		case m.merged && (*o)[i].merged:
			if err := (*o)[i].inner.merge(m.inner); err != nil {
				return fmt.Errorf("%s: %w", m.key, err)
			}
		default:
			return fmt.Errorf("%q is defined by two parts", m.key)
		}
	}
	return nil
}

// write writes o at indent: one member a line, each merged member's
// members a level further in, the others' values as their parts wrote them.
func (o object) write(buf *bytes.Buffer, indent int) error {
	if len(o) == 0 {
		buf.WriteString("{}")
		return nil
	}
	pad := strings.Repeat(" ", indent+2)
	buf.WriteString("{\n")
	for i, m := range o {
		key, err := encodeKey(m.key)
		if err != nil {
			return err
		}
		buf.WriteString(pad + key + ": ")
		if m.merged {
			if err := m.inner.write(buf, indent+2); err != nil {
				return err
			}
		} else {
			buf.Write(m.raw)
		}
		if i < len(o)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString(strings.Repeat(" ", indent) + "}")
	return nil
}

// encodeKey writes a member's name as a JSON string, leaving <, > and &
// as they are.
func encodeKey(k string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(k); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
