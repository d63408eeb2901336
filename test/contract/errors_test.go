package contract

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

// control calls the emulator's control API (faults); it is the emulator's own interface, not the
// API's, so it is called with net/http rather than through the client.
func control(t *testing.T, method, path string, body any) {
	t.Helper()
	payload, err := json.Marshal(body)
	must(t, "control body", err)
	req, err := http.NewRequest(method, env(t, "CONTRACT_CONTROL_URL")+path, bytes.NewReader(payload))
	must(t, "control request", err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	must(t, "control "+path, err)
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("control %s %s: %d", method, path, res.StatusCode)
	}
}

func fault(t *testing.T, rule map[string]any) {
	t.Helper()
	control(t, "POST", "/faults", rule)
	t.Cleanup(func() { control(t, "DELETE", "/faults", map[string]any{}) })
}

// expectAPIError checks the status code and the message the client built from the error
// envelope (`[field] reason`, several joined by "; "), which it can only do when the answer's
// Content-Type is exactly its Accept, `application/json`.
func expectAPIError(t *testing.T, what string, err error, code int, message string) {
	t.Helper()
	e := apiError(t, what, err)
	if e.Code != code || e.Message != message {
		t.Fatalf("%s: got %d %q, want %d %q", what, e.Code, e.Message, code, message)
	}
	if e.Response == nil && code != 502 {
		t.Fatalf("%s: the client kept no response", what)
	}
}

func TestErrorsOfEachKindParsedByTheClient(t *testing.T) {
	c, ctx := newClient(t), ctxFor(t)

	// 400: one field.
	_, err := c.CreateVPC(ctx, linodego.VPCCreateOptions{Label: "bad_label", Region: "es-mad"})
	expectAPIError(t, "400 one field", err, 400, "[label] Label must include only ASCII letters, numbers, and dashes")

	// 400: several entries at once.
	_, err = c.CreateDomain(ctx, linodego.DomainCreateOptions{Domain: "", Type: linodego.DomainTypeMaster})
	e := apiError(t, "400 several", err)
	if e.Code != 400 || strings.Count(e.Message, "; ") < 1 || !strings.Contains(e.Message, "[domain]") {
		t.Fatalf("400 several: %d %q", e.Code, e.Message)
	}

	// 400: a filter on a field the collection does not filter by.
	_, err = c.ListVPCs(ctx, linodego.NewListOptions(0, `{"foo":"bar"}`))
	expectAPIError(t, "400 bad filter", err, 400, "[X-Filter] Cannot filter on foo")

	// 401: unknown token.
	stranger := newClient(t)
	stranger.SetToken(strings.Repeat("0", 64))
	_, err = stranger.ListVPCs(ctx, nil)
	expectAPIError(t, "401 invalid token", err, 401, "Invalid Token")

	// 401: the token lacks the endpoint's scope.
	scoped := newClient(t)
	scoped.SetToken(env(t, "CONTRACT_SCOPED_TOKEN"))
	_, err = scoped.CreateVPC(ctx, linodego.VPCCreateOptions{Label: "scoped", Region: "es-mad"})
	expectAPIError(t, "401 scope", err, 401, "Your OAuth token is not authorized to use this endpoint.")
	if got := apiError(t, "401 scope", err).Response.Header.Get("X-Accepted-OAuth-Scopes"); got != "vpc:read_write" {
		t.Fatalf("X-Accepted-OAuth-Scopes: %q", got)
	}

	// 403: a restricted user without the grant.
	restricted := newClient(t)
	restricted.SetToken(env(t, "CONTRACT_RESTRICTED_TOKEN"))
	_, err = restricted.CreateVPC(ctx, linodego.VPCCreateOptions{Label: "restricted", Region: "es-mad"})
	expectAPIError(t, "403", err, 403, "Unauthorized")

	// 404.
	_, err = c.GetVPC(ctx, 1)
	expectAPIError(t, "404", err, 404, "Not found")

	// 429 once: the client waits the Retry-After the emulator names and retries, transparently.
	fault(t, map[string]any{"pathPattern": "/v4/vpcs", "method": "GET", "kind": "429", "count": 1, "retryAfterSeconds": 1})
	started := time.Now()
	_, err = c.ListVPCs(ctx, nil)
	must(t, "ListVPCs after one 429", err)
	if waited := time.Since(started); waited < time.Second {
		t.Fatalf("the client retried after %v, before the Retry-After of 1 s", waited)
	}

	// 429 without retries: the reason reaches the caller.
	noRetry := newClient(t)
	noRetry.SetRetryCount(0)
	fault(t, map[string]any{"pathPattern": "/v4/regions", "kind": "429", "count": 1, "retryAfterSeconds": 1})
	_, err = noRetry.ListRegions(ctx, nil)
	expectAPIError(t, "429", err, 429, "Too many requests")

	// 500: not retried by the client.
	fault(t, map[string]any{"pathPattern": "/v4/networking/firewalls", "kind": "500", "count": 1})
	_, err = c.ListFirewalls(ctx, nil)
	expectAPIError(t, "500", err, 500, "Internal Server Error")

	// 502 from the gateway, text/html: the client's own message.
	fault(t, map[string]any{"pathPattern": "/v4/domains", "kind": "502", "count": 1})
	_, err = c.ListDomains(ctx, nil)
	expectAPIError(t, "502", err, 502, "Bad Gateway")

	// 503 during maintenance: X-Maintenance-Mode tells the client not to retry.
	fault(t, map[string]any{"pathPattern": "/v4/images", "kind": "503-maintenance", "count": 1})
	_, err = c.ListImages(ctx, nil)
	expectAPIError(t, "503 maintenance", err, 503, "The API is undergoing maintenance. Please try again later.")

	// 503 otherwise: retried until it passes.
	fault(t, map[string]any{"pathPattern": "/v4/networking/ipv6/ranges", "kind": "503", "count": 2})
	_, err = c.ListIPv6Ranges(ctx, nil)
	must(t, "ListIPv6Ranges after two 503s", err)
}
