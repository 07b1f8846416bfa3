package readcache

// Memo is a part of a ReadCache keeping values derived from sources: under
// a key, the value derived and the source it was derived from. A value is
// used only for the very source it was derived from, compared on every use,
// so a changed source is derived afresh however it changed; entries
// therefore do not expire, and leave only as the shared budget evicts
// them. A nil Memo derives on every use.
type Memo[S, V any] struct {
	space *Space[memoEntry[S, V]]
	equal func(a, b S) bool
}

// memoEntry is a derived value and its source.
type memoEntry[S, V any] struct {
	source S
	value  V
}

// NewMemo returns a new part of shared, nil when shared is nil. equal
// compares sources; weigh estimates the bytes an entry holds, its source
// and value together.
func NewMemo[S, V any](shared *Cache, equal func(a, b S) bool, weigh func(S, V) int) *Memo[S, V] {
	if shared == nil {
		return nil
	}
	return &Memo[S, V]{
		space: NewSpace(shared, func(e memoEntry[S, V]) int { return weigh(e.source, e.value) }),
		equal: equal,
	}
}

// Get returns the value derived from source under key, deriving and
// keeping it unless the memo holds one derived from an equal source.
// Concurrent gets of a key may each derive. The value is shared: the
// caller must not change it.
func (m *Memo[S, V]) Get(key string, source S, derive func(S) V) V {
	if m == nil {
		return derive(source)
	}
	if e, ok := m.space.peek(key); ok && m.equal(e.source, source) {
		return e.value
	}
	v := derive(source)
	m.space.keep(key, memoEntry[S, V]{source: source, value: v})
	return v
}
