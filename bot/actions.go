package bot

// ActionImprovePage is the action_id of the "Ask the docs agent to improve
// this page" button on a row of the visitors summary (a top page, or a page
// that fell most). Its value is the JSON of the page and its figures:
// {"path", "human", "ai", "total", "range"}. bot/visitors renders it; the
// docs agent's feature handles it (the prefilled job modal).
const ActionImprovePage = "docs_improve_page"
