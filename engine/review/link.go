package review

import (
	"net/url"
	"strings"
)

// A review's link is a share link plus the call to review: the /review/
// page's address ends in "#s=...&op=ID" (or "#example=NAME&op=ID"), and
// `mcplab review` takes the same link. The op member is the call's JSON-RPC
// id as Options.Op takes it (41, job-1 or "job-1"), query-escaped; absent
// means the first call.

// SplitLink returns the share link of a review link (everything but its
// "&op=" member) and the op it names ("" when none).
func SplitLink(link string) (share, op string) {
	i := strings.IndexByte(link, '#')
	if i < 0 {
		return link, ""
	}
	parts := strings.Split(link[i+1:], "&")
	kept := parts[:0]
	for _, p := range parts {
		if v, ok := strings.CutPrefix(p, "op="); ok {
			if u, err := url.QueryUnescape(v); err == nil {
				op = u
			} else {
				op = v
			}
			continue
		}
		kept = append(kept, p)
	}
	return link[:i+1] + strings.Join(kept, "&"), op
}

// LinkFragment is the fragment (without "#") of the review link of share
// fragment frag ("s=..." or "example=NAME") and op ("" for the first call).
func LinkFragment(frag, op string) string {
	if op == "" {
		return frag
	}
	return frag + "&op=" + url.QueryEscape(op)
}
