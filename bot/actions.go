package bot

// ActionImprovePage is the action_id of the "Improve this page" button on a
// page of a visitors summary. Its value is JSON: {"path", "human", "ai",
// "total", "range"}. The visitors feature renders it; the agent feature
// handles it (a job modal about the page, whose job goes in the summary's
// thread). It lives in the core because features do not import each other.
const ActionImprovePage = "docs_improve_page"

// ActionNewJob is the action_id of the "New docs job" button of the App
// Home. Its value is the channel the job goes in (the person's direct
// messages with docsbot). The home feature renders it; the agent feature
// handles it (the job modal, whose job starts a thread in that channel).
const ActionNewJob = "docs_new_job"
