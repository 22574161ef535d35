package templates

import (
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/mcplab/mcplab/engine/scenario"
)

// The policy switches' controls: which switches show where, their labels
// and options, and the reflection that draws every switch of a policy.

// handlerPolicies are the server switches that act on the server's
// handlers (server.handlers), shown only where the scenario has them.
var handlerPolicies = map[string]bool{
	"server.policy.handlerIgnoresCancel": true,
	"server.policy.releaseOnCancel":      true,
	"server.policy.holdNotifications":    true,
}

// ledgerPolicies are the server switches that only matter with a ledger;
// their controls appear in the ledger group, on scenarios with a ledger.
var ledgerPolicies = map[string]bool{
	"server.policy.dedupeBy":      true,
	"server.policy.atomicLedger":  true,
	"server.policy.defensiveCopy": true,
	"server.policy.fingerprint":   true,
}

// policyText labels the policy switches; a switch missing here still gets
// a control, labelled from its JSON name.
var policyText = map[string][2]string{
	"client.policy.httpCancel":                  {"HTTP cancellation", "How a Streamable HTTP client cancels (ignored on stdio)."},
	"client.policy.progressResetsMax":           {"Progress resets the maximum timeout", "Broken on purpose: hung work lives forever."},
	"client.policy.acceptNonIncreasingProgress": {"Accept non-increasing progress", "Broken on purpose: a stuck server keeps a request alive."},
	"client.policy.sendLastEventId":             {"Resume with Last-Event-ID", "Broken on purpose under 2026-07-28: resumes from state the server does not keep."},
	"client.policy.treatTaskAckAsFinal":         {"Treat a tasks/cancel ack as final", "Broken on purpose: the UI says stopped while the worker runs on."},
	"client.policy.lateResponseIsError":         {"A late response is a protocol error", "Broken on purpose: the client tears its session down, failing every call in flight, when a response arrives after it gave up."},
	"client.policy.lateProgressIsError":         {"Late progress is a protocol error", "Broken on purpose: the client tears its session down when progress arrives for a request it no longer tracks."},
	"client.policy.ignoreProgress":              {"Idle clock ignores progress", "Broken on purpose: progress does not restart the idle timeout, so long calls that report progress are cut."},
	"client.policy.forgetResumeToken":           {"Forget the resume position", "Broken on purpose (2025-11-25): a resumed stream that drops again before a new event is resumed without Last-Event-ID, and the call hangs."},
	"client.policy.cancelOnAbandon":             {"Cancel when giving up", "Untick to break: at its timeout the client gives up without telling the server, which works on for nobody."},
	"client.policy.awaitResponseAfterCancel":    {"Keep waiting after a cancel", "Broken on purpose: the client cancels and still waits for a response that never comes."},
	"client.policy.cancelAfterFirstEvent":       {"Cancel only after the first event", "Broken on purpose (Streamable HTTP): the cancellation waits until the response stream has delivered an SSE event."},
	"client.policy.omitLastEventId":             {"Resume without Last-Event-ID", "Broken on purpose (2025-11-25): a dropped stream is resumed with a GET that says nothing of what the client received."},
	"client.policy.resumeDroppedCalls":          {"Resume dropped calls", "Untick to break (2025-11-25): a dropped call's stream is never resumed and the call hangs."},
	"client.policy.skipRefetch":                 {"Skip the refetch", "Broken on purpose: after a reconnect the client keeps its cached lists and refetches nothing."},
	"client.policy.headerMismatch":              {"Request headers", "Broken on purpose (2026-07-28, Streamable HTTP): a tools/call's header disagrees with its body or a required one is missing, and the server refuses the call with HTTP 400 and HeaderMismatch (-32020)."},
	"client.policy.claimProtocolVersion":        {"Claimed protocol version", "Broken on purpose (2026-07-28): the call names a revision the server does not speak, and the server refuses it with HTTP 400 and UnsupportedProtocolVersion (-32022)."},
	"client.policy.timeouts":                    {"Call timeouts", "Whether every call carries an idle or a maximum timeout; “none” is broken on purpose: a silent server keeps the call waiting for ever."},
	"server.policy.respondAfterCancel":          {"Respond after cancellation", "Broken on purpose: the server answers a request it was told to drop."},
	"server.policy.ignoreDisconnect":            {"Ignore the client's disconnect", "Broken on purpose: the server keeps working after the stream closes, commits the side effect and writes into the closed stream."},
	"server.policy.handlerIgnoresCancel":        {"Handler ignores cancellation", "Broken on purpose: the handler swallows the cancellation and its work and side effects run to the end (hahwul/gori#1103)."},
	"server.policy.releaseOnCancel":             {"Release held resources on cancel", "Untick to break: a cancelled handler keeps its lock (no finally), and the next call that needs it waits."},
	"server.policy.holdNotifications":           {"Hold notifications until the handler returns", "Broken on purpose: progress reaches the client only when the handler returns, so it cannot reset the idle timeout (mastra-ai/mastra#14782)."},
	"server.policy.routeByIdOnly":               {"Route responses by id only", "Broken on purpose (Streamable HTTP): two requests in flight with one id get each other's answers (modelcontextprotocol/typescript-sdk#2433)."},
	"server.policy.replayAllStreams":            {"Replay every stream's events", "Broken on purpose (2025-11-25): a resumed stream also gets the other streams' events, most of them a second time."},
	"server.policy.replayNothing":               {"Replay nothing on resume", "Broken on purpose (2025-11-25): the event store cannot map Last-Event-ID to its stream, so a resumed stream replays nothing."},
	"server.policy.asyncInitialized":            {"Apply initialized late", "Broken on purpose (2025-11-25): the server acknowledges notifications/initialized before applying it and rejects a request sent right after it."},
	"client.policy.reinitializeOnNotFound":      {"Initialize again after 404", "Off is broken (2025-11-25, Streamable HTTP): the client takes a retired session's 404 as the call's failure and re-issues nothing."},
	"server.policy.dedupeBy":                    {"Deduplicate ledger calls by", "A new JSON-RPC id is not deduplication: by RPC id, a retried mutation runs twice."},
	"server.policy.atomicLedger":                {"Atomic ledger (one transaction)", "Untick to break: check-then-act lets two workers both run the effect."},
	"server.policy.defensiveCopy":               {"Return defensive copies", "Untick to break: a caller's mutation corrupts later replays."},
	"server.policy.fingerprint":                 {"Compare argument fingerprints", "Untick to break: one idempotency key aliases two intents."},
}

// policyOptions lists the choices of the string policy switches.
var policyOptions = map[string][]option{
	"client.policy.httpCancel": {
		{Value: scenario.HTTPCancelCloseStream, Label: "close the response stream"},
		{Value: scenario.HTTPCancelPostNotification, Label: "POST notifications/cancelled"},
	},
	"client.policy.timeouts": {
		{Value: "", Label: "not modelled"},
		{Value: scenario.TimeoutsRequired, Label: "every call has one"},
		{Value: scenario.TimeoutsNone, Label: "none (broken)"},
	},
	"client.policy.headerMismatch": {
		{Value: "", Label: "agree with the body"},
		{Value: scenario.HeaderMismatchProtocolVersion, Label: "MCP-Protocol-Version says 2025-11-25 (broken)"},
		{Value: scenario.HeaderMismatchMethod, Label: "Mcp-Method says tools/list (broken)"},
		{Value: scenario.HeaderMismatchName, Label: "Mcp-Name left out (broken)"},
	},
	"client.policy.claimProtocolVersion": {
		{Value: "", Label: "the scenario's revision"},
		{Value: "2025-11-25", Label: "2025-11-25, which needs initialize (broken)"},
		{Value: "2099-01-01", Label: "2099-01-01, unknown to the server (broken)"},
	},
	"server.policy.dedupeBy": {
		{Value: "idempotency-key", Label: "idempotency key"},
		{Value: "rpc-id", Label: "JSON-RPC id (broken)"},
		{Value: "none", Label: "nothing (broken)"},
	},
}

// policyControls returns a control for every bool, *bool and string field
// of a policy struct (scenario.ClientPolicy or scenario.ServerPolicy), in
// field order, at prefix + "." + its JSON name: a checkbox for a bool (a
// nil *bool means true, the format's default for those switches), a select
// (policyOptions) for a string, whose empty value selects the first option,
// the default. A string switch without known options is left out
// (TestEveryPolicyHasAControl catches it).
func policyControls(prefix string, v reflect.Value) []control {
	var out []control
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		path := prefix + "." + name
		text, ok := policyText[path]
		if !ok {
			text = [2]string{humanize(name), ""}
		}
		fv := v.Field(i)
		switch {
		case f.Type.Kind() == reflect.Bool:
			out = append(out, checkboxControl(path, text[0], fv.Bool(), text[1]))
		case f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Bool:
			out = append(out, checkboxControl(path, text[0], fv.IsNil() || fv.Elem().Bool(), text[1]))
		case f.Type.Kind() == reflect.String:
			if opts, ok := policyOptions[path]; ok {
				value := fv.String()
				if value == "" {
					value = opts[0].Value
				}
				out = append(out, selectControl(path, text[0], value, text[1], slices.Clone(opts)...))
			}
		}
	}
	return out
}

// humanize turns a camelCase JSON name into words: "respondAfterCancel"
// becomes "Respond after cancel".
func humanize(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case i == 0:
			b.WriteRune(unicode.ToUpper(r))
		case unicode.IsUpper(r):
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// retryControls are the controls of a scenario's retry policy
// (client.policy.retry), none when it has none: its delay, how many
// retries and whether a retry keeps the call's idempotency key.
func retryControls(p *scenario.RetryPolicy) []control {
	if p == nil {
		return nil
	}
	return []control{
		numberControl("client.policy.retry.delayMs", "Retry delay", p.DelayMs, "How long after a call ended the client's retry policy sends it again."),
		countControl("client.policy.retry.max", "Retries per call", int64(p.Max), 1, scenario.MaxRetries, "retries", "How many times the retry policy sends one call again."),
		checkboxControl("client.policy.retry.sameKey", "Retry keeps the idempotency key", p.SameKey, "Untick and the client mints a fresh key per attempt: the ledger sees a new intent."),
	}
}
