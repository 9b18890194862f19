package roles

// Words say a refusal: what the person asked to do and what they may use
// instead, so that a guest refused a deployment is not told about agent
// jobs (Admission.Say, Verdict.Say).
type Words struct {
	// Act is what was refused, as the end of "cannot …": "start docs agent
	// jobs".
	Act string
	// Still is what the person may use instead, as the end of "You can
	// still …" (mrkdwn), "" when nothing is worth naming.
	Still string
}

// What a refusal may be about.
const (
	ActJobs      = "start docs agent jobs or start them again"
	ActFollowUps = "send follow-ups to docs agent jobs"
	ActDeploys   = "deploy the docs or open previews"
)

// JobWords are the words of a refusal when the caller says no more: agent
// jobs, with nothing named instead.
var JobWords = Words{Act: ActJobs}

// still is the sentence naming what the person may still use, "" when w
// names nothing.
func (w Words) still() string {
	if w.Still == "" {
		return ""
	}
	return "You can still " + w.Still + ". "
}

// why is why the act needs the role: a job and a deployment change the
// organisation's docs.
func (w Words) why() string {
	if w.Act == ActDeploys {
		return "because it publishes the company's docs"
	}
	return "because a job can open pull requests on the company's docs"
}
