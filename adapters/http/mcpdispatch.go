package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/julienschmidt/httprouter"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/app/platform"
)

// maxMCPBody bounds the route body one tool result carries: 4 MiB, embedded
// as it is (JSON, CSV) or base64-encoded (PDF, XLSX, Parquet). A larger body
// is refunded and the tool says to fetch it over HTTP (spec-gaps B100).
const maxMCPBody = 4 << 20

// mcpTool answers a call of op's tool by running it through op's route in
// the Meter, within mcpDeadline: the SDK does not hand the HTTP request's
// deadline on to a tool. The key is the one the POST was authenticated
// with (serveMCP), else the credential of the call's headers.
func (s *Server) mcpTool(op mcpOperation) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(ctx, mcpDeadline)
		defer cancel()
		r, p, err := op.request(ctx, req.Params.Arguments)
		if err != nil {
			return mcpRefusal(err), nil
		}
		var c platform.Call
		if key, ok := platform.KeyFrom(ctx); ok {
			c.Key = &key
		} else if req.Extra != nil {
			c.Credential = mcpKey(req.Extra.Header)
		}
		return s.mcpDispatch(r, p, op, c), nil
	}
}

// request builds the HTTP request a tool call stands for, the carrier of
// its parameters to the route's handler, and its path parameters: each
// argument named by a parameter goes where the parameter is (path, query,
// header); the others are the members of the JSON body. An argument the
// input schema does not name is refused, naming it (spec-gaps B175).
func (op mcpOperation) request(ctx context.Context, raw json.RawMessage) (*http.Request, httprouter.Params, error) {
	args, err := mcpArguments(raw)
	if err != nil {
		return nil, nil, err
	}
	if err := op.knownArguments(args); err != nil {
		return nil, nil, err
	}
	var params httprouter.Params
	path, query, header, body := op.route.Path, url.Values{}, http.Header{}, map[string]any{}
	for name, v := range args {
		p, isParam := op.params[name]
		if !isParam {
			body[name] = v
			continue
		}
		text, ok, err := paramText(name, v)
		switch {
		case err != nil:
			return nil, nil, err
		case !ok:
			continue
		case p.In == "path":
			// A request over HTTP is matched on its unescaped path: a "/"
			// would move the value into another segment.
			if text == "" || strings.Contains(text, "/") {
				return nil, nil, unprocessable(fmt.Sprintf("argument %q must be one non-empty path segment, without \"/\"", name))
			}
			path = strings.Replace(path, "{"+name+"}", url.PathEscape(text), 1)
			params = append(params, httprouter.Param{Key: name, Value: text})
		case p.In == "header":
			header.Set(name, text)
		default:
			query.Set(name, text)
		}
	}
	for name, p := range op.params {
		if _, given := args[name]; p.In == "path" && (!given || args[name] == nil) {
			return nil, nil, invalid(fmt.Sprintf("argument %q is required", name))
		}
	}
	r, err := op.newRequest(ctx, path, query, header, body)
	return r, params, err
}

// knownArguments refuses the first argument, in name order, that the
// tool's input schema does not name.
func (op mcpOperation) knownArguments(args map[string]any) error {
	props, _ := op.schema["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(args)) {
		if _, ok := props[name]; !ok {
			return invalid(fmt.Sprintf("unknown argument %q: %s takes %s", quoted(name), op.route.OperationID,
				strings.Join(slices.Sorted(maps.Keys(props)), ", ")))
		}
	}
	return nil
}

func (op mcpOperation) newRequest(ctx context.Context, path string, query url.Values, header http.Header, body map[string]any) (*http.Request, error) {
	var rd io.Reader = http.NoBody
	if op.hasBody {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, invalid("arguments could not be encoded as the request body")
		}
		// The route reads it as the body of a request over HTTP, bounded.
		rd = http.MaxBytesReader(nil, io.NopCloser(bytes.NewReader(b)), maxBody)
		header.Set("Content-Type", "application/json")
	}
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, op.route.Method, path, rd)
	if err != nil {
		return nil, invalid("arguments do not make a request: " + err.Error())
	}
	req.Header = header
	return req, nil
}

// mcpArguments decodes a tool call's arguments: a JSON object, or nothing.
// Numbers keep their text, so that a parameter gets the digits sent.
func mcpArguments(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return args, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, invalid("arguments are not a JSON object")
	}
	return args, nil
}

// paramText is an argument as the text of a parameter; ok is false for
// null, which stands for leaving the parameter out.
func paramText(name string, v any) (text string, ok bool, err error) {
	switch v := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	case json.Number:
		return v.String(), true, nil
	case bool:
		return strconv.FormatBool(v), true, nil
	}
	return "", false, unprocessable(fmt.Sprintf("argument %q: want a string, number or boolean", name))
}

// mcpRefusal is the tool error of a call refused before it reached a
// route: it cost nothing.
func mcpRefusal(err error) *mcp.CallToolResult {
	code, name := status(err)
	return &mcp.CallToolResult{IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%d %s: %s; nothing was charged", code, name, message(code, err))}},
		Meta:    mcp.Meta{"quarry/status": code, "quarry/credits_cost": 0}}
}

// mcpDispatch runs a tool call through the route of op in the Meter, its
// answer captured, and turns the route's answer into the tool's result. A
// result too large to carry is refunded by the Meter, as a failed call.
func (s *Server) mcpDispatch(r *http.Request, p httprouter.Params, op mcpOperation, c platform.Call) *mcp.CallToolResult {
	rec := newCapture(maxMCPBody)
	var res *mcp.CallToolResult
	c.Accept = func() (err error) {
		res, err = s.mcpCarried(rec, r, op)
		return err
	}
	o, body, err := s.call(rec, r, p, s.data[op.route.Method+" "+op.route.Path], c)
	var tooLarge *mcpTooLargeError
	if errors.As(err, &tooLarge) {
		return mcpTooLarge(mcpMeta(rec, r), o, r, op, tooLarge.why)
	}
	aborted := s.answer(rec, r, o, body, err)
	if rec.status == http.StatusPaymentRequired || rec.status == http.StatusTooManyRequests {
		// The POST answers 200: the refusal is counted as the route's.
		s.metrics.refusals.WithLabelValues(statusLabel(rec.status)).Inc()
	}
	meta := mcpMeta(rec, r)
	switch {
	case aborted:
		return mcpError(meta, "the response failed part way through; the request stays charged, as over HTTP (request_id "+recordOf(r).id+")")
	case rec.status < 200 || rec.status > 299:
		return mcpRouteError(meta, rec)
	}
	res.Meta = meta
	meta["quarry/licence"] = op.licence
	return res
}

// mcpMeta is the _meta of a tool result: the route's status, the request
// id, and what the call cost as its headers say.
func mcpMeta(rec *capture, r *http.Request) mcp.Meta {
	meta := mcp.Meta{"quarry/status": rec.status, "quarry/request_id": recordOf(r).id}
	for name, h := range map[string]string{"quarry/credits_cost": "X-Credits-Cost", "quarry/credits_remaining": "X-Credits-Remaining", "quarry/retry_after": "Retry-After"} {
		if n, err := strconv.ParseInt(rec.header.Get(h), 10, 64); err == nil {
			meta[name] = n
		}
	}
	return meta
}

// mcpCarried is the tool result of a route's complete answer, or an
// *mcpTooLargeError when it is too large to carry.
func (s *Server) mcpCarried(rec *capture, r *http.Request, op mcpOperation) (*mcp.CallToolResult, error) {
	if rec.overflowed() {
		return nil, &mcpTooLargeError{fmt.Sprintf("the response is %d bytes, more than the %d a tool result carries", rec.size, maxMCPBody)}
	}
	res := mcpResult(rec, r)
	if !op.licence.RedistributionAllowed {
		res.Content = append(res.Content, &mcp.TextContent{Text: fmt.Sprintf("Licence of %s: %s.", op.licence.Source, op.licence.Terms)})
	}
	if n := mcpResultSize(res, rec.size); n > maxMCPResult {
		return nil, &mcpTooLargeError{fmt.Sprintf("the result is %d bytes as JSON, more than the %d an MCP response carries", n, maxMCPResponse)}
	}
	return res, nil
}

// mcpTooLargeError is a route's answer too large for a tool result; why
// says how large.
type mcpTooLargeError struct{ why string }

func (e *mcpTooLargeError) Error() string { return e.why }

// maxMCPResult bounds a tool result as JSON: maxMCPResponse, less room for
// the JSON-RPC envelope around it.
const maxMCPResult = maxMCPResponse - 64<<10

// mcpResultSize is the length of res as JSON, measured only when a route
// body of bodySize bytes could make it pass maxMCPResult: a JSON body comes
// back at most three times as long (as structured content and as text), a
// blob 4/3 times, a text at most six times (a control character is
// written \u00XX).
func mcpResultSize(res *mcp.CallToolResult, bodySize int64) int64 {
	if bodySize*6 <= maxMCPResult {
		return 0
	}
	var n byteCount
	_ = encodeJSON(&n, res)
	return int64(n)
}

// byteCount is a writer that only counts.
type byteCount int64

// Write implements io.Writer.
func (c *byteCount) Write(p []byte) (int, error) {
	*c += byteCount(len(p))
	return len(p), nil
}

func mcpError(meta mcp.Meta, text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Meta: meta, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// mcpRouteError is the tool error of a route's error answer: its status,
// code and message, with the ErrorResponse as structured content.
func mcpRouteError(meta mcp.Meta, rec *capture) *mcp.CallToolResult {
	var body map[string]any
	if json.Unmarshal(rec.body.Bytes(), &body) != nil {
		return mcpError(meta, fmt.Sprintf("%d %s", rec.status, http.StatusText(rec.status)))
	}
	text := fmt.Sprintf("%d %v: %v", rec.status, body["error"], body["message"])
	if cost, ok := meta["quarry/credits_cost"].(int64); ok && cost == 0 {
		text += "; nothing was charged"
	}
	// The error body goes in _meta, not in structuredContent, which a
	// client may hold to the tool's output schema even in an error.
	meta["quarry/error"] = body
	return mcpError(meta, text)
}

// mcpTooLarge answers a result too large to carry (why says how large):
// the call failed, so the Meter refunded it and released a claim on an
// Idempotency-Key, as for any failed request, so that the key replays
// nothing it was not paid for.
func mcpTooLarge(meta mcp.Meta, o platform.Outcome, r *http.Request, op mcpOperation, why string) *mcp.CallToolResult {
	switch {
	case o.Replayed:
		return mcpError(meta, fmt.Sprintf("%s; nothing was charged: send the same request over HTTP (%s %s)", why, op.route.Method, r.URL.RequestURI()))
	case o.Refunded == 0:
		return mcpError(meta, why+", and its refund failed; GET /account/credits lists the request by request_id")
	}
	// A pending refund is written again until kept: it costs nothing,
	// though the balance after it is not known yet.
	meta["quarry/credits_cost"] = int64(0)
	delete(meta, "quarry/credits_remaining")
	if o.Cost.BalanceKnown {
		meta["quarry/credits_remaining"] = o.Cost.Balance
	}
	return mcpError(meta, fmt.Sprintf("%s; nothing was charged: narrow the request, or send it over HTTP (%s %s)", why, op.route.Method, r.URL.RequestURI()))
}

// mcpResult is a successful route answer as a tool result: JSON as
// structured content and text, the route's encoding of it carried as it
// is, and a file as an embedded resource.
func mcpResult(rec *capture, req *http.Request) *mcp.CallToolResult {
	mediaType, _, _ := mime.ParseMediaType(rec.header.Get("Content-Type"))
	if mediaType == "application/json" && json.Valid(rec.body.Bytes()) {
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(rec.body.Bytes()), Content: []mcp.Content{&mcp.TextContent{Text: rec.body.String()}}}
	}
	uri := "quarry:" + req.URL.RequestURI()
	if _, params, err := mime.ParseMediaType(rec.header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		uri += "#" + params["filename"]
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: rec.header.Get("Content-Type")}
	if strings.HasPrefix(mediaType, "text/") {
		rc.Text = rec.body.String()
	} else {
		rc.Blob = bytes.Clone(rec.body.Bytes())
	}
	return &mcp.CallToolResult{StructuredContent: mcpFileContent(uri, mediaType, rec.body.Len()),
		Content: []mcp.Content{&mcp.EmbeddedResource{Resource: rc}}}
}

// capture is the ResponseWriter of an in-process dispatch: it keeps the
// status, the headers and the first limit bytes of the body, and counts the
// rest.
type capture struct {
	header http.Header
	status int
	body   bytes.Buffer
	limit  int
	size   int64
}

func newCapture(limit int) *capture { return &capture{header: http.Header{}, limit: limit} }

// Header implements http.ResponseWriter.
func (c *capture) Header() http.Header { return c.header }

// WriteHeader implements http.ResponseWriter.
func (c *capture) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
}

// Write implements http.ResponseWriter.
func (c *capture) Write(p []byte) (int, error) {
	c.WriteHeader(http.StatusOK)
	c.size += int64(len(p))
	if room := c.limit - c.body.Len(); room > 0 {
		c.body.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// overflowed reports whether the body was longer than the limit.
func (c *capture) overflowed() bool { return c.size > int64(c.limit) }
