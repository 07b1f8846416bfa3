package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/apikey"
)

// The gate in front of the MCP SDK (spec-gaps B97, B104): it reads the one
// JSON-RPC message of a POST itself, refuses a batch or a method the server
// does not serve before the SDK sees it, rate-limits every message that is
// not a tool call, bounds the time and the size of the answer, and answers
// the SDK's own plain-text refusals in JSON.

// maxMCPResponse bounds one answer of POST /mcp: 16 MiB, the line a stdio
// client reads at most, and room for a tool result of maxMCPBody (B100). A
// longer answer is not sent: the client gets a JSON-RPC error instead.
const maxMCPResponse = 16 << 20

// mcpDeadline bounds the time an MCP request runs: it ends before the
// server's write timeout, with time left to write its refusal.
const mcpDeadline = writeTimeout - 5*time.Second

// mcpFreeBucket prefixes the rate bucket of a key's MCP messages other than
// tool calls: a bucket of its own, with the rate and burst of the key's, so
// that listing tools neither spends nor is spent by the data routes' budget.
const mcpFreeBucket = "mcp:"

// methodCallTool is the one metered MCP method: a tool call, limited and
// charged by the route it is dispatched to.
const methodCallTool = "tools/call"

// mcpServed are the methods the server answers. Anything else, among them
// subscriptions/listen (a stream that never ends) and resources/subscribe,
// is "method not found": the server sends no notification (B97).
var mcpServed = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true, "logging/setLevel": true,
	"tools/list": true, methodCallTool: true, "resources/list": true, "resources/templates/list": true,
	"resources/read": true, "prompts/list": true, "prompts/get": true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
}

// mcpMessage is one JSON-RPC message as the gate reads it. It is encoded
// again for the SDK, so the SDK reads exactly the message the gate checked.
type mcpMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// serveMCP authenticates a POST /mcp, reads and checks its message, and
// hands it to the SDK's handler h. The key goes with the message in the
// request's context, which the SDK hands on to a tool's handler: a tool
// call is metered with it, not authenticated again.
func (s *Server) serveMCP(h http.Handler) func(http.ResponseWriter, *http.Request, httprouter.Params) {
	return func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		key, err := s.mcpCaller(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		r = r.WithContext(platform.WithKey(r.Context(), key))
		msg, body, err := readMCPMessage(r)
		if errors.Is(err, errPayloadTooLarge) {
			writeError(w, r, err)
			return
		}
		if msg.Method != methodCallTool || err != nil {
			if err := s.limit(r.Context(), w, mcpPolicy, mcpFreeBucket+key.ID); err != nil {
				writeError(w, r, err)
				return
			}
		}
		if err != nil {
			writeRPCError(w, r, err, msg.ID)
			return
		}
		serveMCPMessage(w, r, h, msg.ID, body)
	}
}

// mcpCaller authenticates the key of an MCP request.
func (s *Server) mcpCaller(r *http.Request) (apikey.Key, error) {
	if err := oneCredential(r.Header); err != nil {
		return apikey.Key{}, err
	}
	key, err := s.d.Metering.Authenticate(r.Context(), mcpKey(r.Header))
	if err == nil {
		recordOf(r).keyID = key.ID
	}
	return key, err
}

// readMCPMessage reads the body as one JSON-RPC message and returns it
// with its encoding for the SDK. A batch is refused before it is parsed.
func readMCPMessage(r *http.Request) (mcpMessage, []byte, error) {
	var msg mcpMessage
	raw, err := io.ReadAll(r.Body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return msg, nil, errPayloadTooLarge
	case err != nil:
		return msg, nil, invalid("the body could not be read")
	case bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("[")):
		return msg, nil, errMCPBatch
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		var notObject *json.UnmarshalTypeError
		if errors.As(err, &notObject) {
			return msg, nil, invalid("the body is not one JSON-RPC message object")
		}
		return msg, nil, fmt.Errorf("%w: %v", errMCPParse, err)
	}
	if msg.Method != "" && !mcpServed[msg.Method] {
		return msg, nil, fmt.Errorf("%w: %q is not served here (no subscriptions, completions or server-to-client stream)", errMCPMethod, quoted(msg.Method))
	}
	if name, ok := calledTool(msg); ok && !isTool(name) {
		return msg, nil, &unknownToolError{name: quoted(name)}
	}
	body, err := encodeMessage(msg)
	return msg, body, err
}

// calledTool is the name a tools/call message calls, if it gives one.
func calledTool(msg mcpMessage) (string, bool) {
	var params struct {
		Name *string `json:"name"`
	}
	if msg.Method != methodCallTool || json.Unmarshal(msg.Params, &params) != nil || params.Name == nil {
		return "", false
	}
	return *params.Name, true
}

// isTool reports whether name is one of the tools.
func isTool(name string) bool {
	ops, _ := mcpTools()
	return slices.ContainsFunc(ops, func(op mcpOperation) bool { return op.route.OperationID == name })
}

// unknownToolError is a tools/call of a name that is no tool: the gate
// answers it for every protocol version as the SDK does for 2026-07-28
// (spec-gaps B175): 400, JSON-RPC -32602, `unknown tool "name"`.
type unknownToolError struct{ name string }

func (e *unknownToolError) Error() string { return fmt.Sprintf("unknown tool %q", e.name) }

// Unwrap makes the error a 400 invalid_request.
func (e *unknownToolError) Unwrap() error { return usecase.ErrInvalidRequest }

// encodeMessage encodes msg for the SDK as it came, <, > and & included:
// encoding/json's HTML escapes would make a body within the bound six
// times its size and refuse it.
func encodeMessage(msg mcpMessage) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(msg); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// maxQuoted bounds what an error message quotes of a client's input.
const maxQuoted = 64

// quoted is s as an error message quotes it: at most maxQuoted bytes of
// it, so that a refusal is never much larger than what it refuses.
func quoted(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// serveMCPMessage serves the message body through h within mcpDeadline,
// its answer bounded by maxMCPResponse.
func serveMCPMessage(w http.ResponseWriter, r *http.Request, h http.Handler, id json.RawMessage, body []byte) {
	ctx, cancel := context.WithTimeout(r.Context(), mcpDeadline)
	defer cancel()
	r = r.WithContext(ctx)
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	mw := newMCPWriter(w, r, id)
	h.ServeHTTP(mw, r)
	mw.finish()
}

// mcpWriter stands between the SDK and the client. It holds the status
// until the first byte, so that it can still answer instead: a plain-text
// refusal of the SDK as a JSON-RPC error of the same status, and an answer
// longer than maxMCPResponse as a JSON-RPC error saying so.
type mcpWriter struct {
	w       http.ResponseWriter
	r       *http.Request
	id      json.RawMessage
	code    int
	sent    int
	started bool // the status went out
	done    bool // a refusal was written in the SDK's place
	cut     bool // an answer begun passed the bound
}

func newMCPWriter(w http.ResponseWriter, r *http.Request, id json.RawMessage) *mcpWriter {
	return &mcpWriter{w: w, r: r, id: id}
}

// Header implements http.ResponseWriter.
func (m *mcpWriter) Header() http.Header { return m.w.Header() }

// WriteHeader implements http.ResponseWriter; the status waits for the body.
func (m *mcpWriter) WriteHeader(code int) {
	if m.code == 0 {
		m.code = code
	}
}

// Write implements http.ResponseWriter.
func (m *mcpWriter) Write(p []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	switch {
	case m.done:
		return len(p), nil
	case !m.started && m.code >= 400 && !isJSON(m.Header()):
		m.refuse(&transportError{code: m.code, text: strings.TrimSpace(string(p))})
		return len(p), nil
	case m.sent+len(p) > maxMCPResponse && m.started:
		m.cut = true
		return 0, errMCPTooLarge
	case m.sent+len(p) > maxMCPResponse:
		m.refuse(fmt.Errorf("%w: the answer is more than the %d bytes an MCP response may carry, so it was not sent; narrow the request", errMCPTooLarge, maxMCPResponse))
		return len(p), nil
	case !m.started:
		m.started = true
		m.w.WriteHeader(m.code)
	}
	m.sent += len(p)
	return m.w.Write(p)
}

// refuse answers err in the SDK's place.
func (m *mcpWriter) refuse(err error) {
	m.done = true
	writeRPCError(m.w, m.r, err, m.id)
}

// finish completes the answer once the SDK has returned: a status without
// a body goes out (in JSON if it is an error), nothing at all after the
// deadline is a JSON-RPC error, and an answer cut at the bound is aborted.
func (m *mcpWriter) finish() {
	switch {
	case m.cut:
		panic(http.ErrAbortHandler)
	case m.done || m.started:
	case m.code >= 400:
		m.refuse(&transportError{code: m.code, text: http.StatusText(m.code)})
	case m.code != 0:
		m.w.WriteHeader(m.code)
	case m.r.Context().Err() != nil:
		m.refuse(fmt.Errorf("%w: the request did not finish within %s", errMCPLate, mcpDeadline))
	}
}

// isJSON reports whether the header declares a JSON body.
func isJSON(h http.Header) bool {
	mediaType, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mediaType == "application/json"
}
