package trace

// OutcomeWord is a client outcome as a note says it: "answered",
// "answered with an error", "abandoned" (other outcomes as they are).
func OutcomeWord(outcome string) string {
	switch outcome {
	case OutcomeResult:
		return "answered"
	case OutcomeError:
		return "answered with an error"
	case OutcomeAbandoned:
		return "abandoned"
	}
	return outcome
}
