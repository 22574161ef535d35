package sse_test

import (
	"fmt"

	"github.com/mcplab/mcplab/engine/sse"
)

// A buffer of three under the reference policy: progress coalesces and is
// evicted, the final response is kept; a buffering proxy then holds the
// stream until the final response ends it.
func Example() {
	b, _ := sse.New[int](3, sse.EvictProgress)
	for i := 1; i <= 4; i++ {
		r, _ := b.Push(sse.Event[int]{Kind: sse.Progress, Token: fmt.Sprintf(`"p%d"`, i%2), ID: i})
		fmt.Println("progress", i, "outcome", r.Outcome, "depth", b.Len())
	}
	b.Push(sse.Event[int]{Kind: sse.Final, ID: 5})
	p := sse.Proxy[int]{Buffering: sse.ProxyBuffers(true, nil, false), FlushBytes: 4096}
	for _, e := range b.Drain(0) {
		fwd, _, _ := p.Arrive(0, e.ID, 60, e.Kind == sse.Final)
		fmt.Println("event", e.ID, "forwarded", fwd)
	}
	fmt.Printf("%+v\n", b.Stats())
	// Output:
	// progress 1 outcome 0 depth 1
	// progress 2 outcome 0 depth 2
	// progress 3 outcome 0 depth 3
	// progress 4 outcome 2 depth 3
	// event 3 forwarded []
	// event 4 forwarded []
	// event 5 forwarded [3 4 5]
	// {MaxDepth:3 DroppedProgress:2 Coalesced:0 DroppedFinals:0 NeedsRefetch:true FinalsDelivered:1}
}

// A stream through a buffer of two: the second progress of one token
// coalesces the first, the final response is kept, and the events say so
// (the runner sets the request id and emits them).
func ExampleStream() {
	buf, _ := sse.New[sse.Msg](2, sse.EvictProgress)
	s := sse.NewStream(0, buf, sse.Proxy[sse.Sent]{})
	for _, m := range []sse.Msg{
		{Msg: []byte(`{"p":1}`), Progress: true, Token: `"t"`, Note: "Progress 1."},
		{Msg: []byte(`{"p":2}`), Progress: true, Token: `"t"`, Note: "Progress 2."},
		{Msg: []byte(`{"result":{}}`), Final: true, Note: "The response."},
	} {
		events, _ := s.Push(10, m)
		for _, e := range events {
			fmt.Println(e.Type, e.Note)
		}
	}
	at, _ := s.NextDrain(10, 100)
	fmt.Println("drain at", at, "takes", len(s.Drain(at, 0)))
	// Output:
	// enqueue Progress 1. Buffered: depth 1 of 2.
	// coalesce Coalesced: newer progress for the same token replaces the buffered one (one progress dropped; the client must refetch).
	// enqueue Progress 2. Buffered: depth 1 of 2.
	// enqueue The response. Buffered: depth 2 of 2.
	// drain at 100 takes 2
}
