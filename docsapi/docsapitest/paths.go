package docsapitest

import "strconv"

// curatedPaths are the pages every documentation site has, most visited first.
func curatedPaths() []string {
	return []string{
		"/",
		"/introduction",
		"/quickstart",
		"/installation",
		"/api-reference/introduction",
		"/api-reference/authentication",
		"/api-reference/endpoint/create-job",
		"/api-reference/endpoint/get-job",
		"/api-reference/endpoint/send-message",
		"/api-reference/endpoint/get-visitors",
		"/development",
		"/changelog",
		"/faq",
		"/api-reference/errors",
		"/api-reference/rate-limits",
		"/api-reference/pagination",
		"/api-reference/endpoint/list-projects",
		"/api-reference/endpoint/get-project",
		"/api-reference/endpoint/update-project",
		"/api-reference/endpoint/delete-job",
		"/api-reference/endpoint/list-jobs",
		"/api-reference/endpoint/search",
		"/api-reference/endpoint/get-feedback",
		"/api-reference/endpoint/trigger-update",
		"/support",
		"/migration",
		"/pricing",
		"/security",
		"/status",
		"/glossary",
	}
}

// pathSections and pathTopics combine into "/section/topic" paths.
func pathSections() []string {
	return []string{"guides", "essentials", "integrations", "components", "settings", "deploy", "analytics", "sdk"}
}

func pathTopics() []string {
	return []string{
		"getting-started", "authentication", "custom-domains", "navigation", "themes",
		"search", "webhooks", "github", "gitlab", "slack", "versioning", "localization",
		"redirects", "seo", "images", "code-blocks", "tables", "callouts", "cards", "tabs",
		"accordions", "snippets", "variables", "openapi", "playground", "monorepo",
		"preview-deployments", "access-control", "sso", "feedback", "llms-txt", "mcp-server",
		"ai-assistant", "broken-links", "reusable-content", "markdown", "frontmatter",
		"sidebar", "troubleshooting", "best-practices",
	}
}

// makePaths returns n unique, realistic page paths: the curated pages, then
// "/section/topic" combinations, then the same with "-2", "-3"... appended.
func makePaths(n int) []string {
	out := make([]string, 0, n)
	seen := make(map[string]struct{}, n)
	add := func(p string) {
		if _, dup := seen[p]; dup || len(out) >= n {
			return
		}
		seen[p] = struct{}{}
		out = append(out, p)
	}
	for _, p := range curatedPaths() {
		add(p)
	}
	sections, topics := pathSections(), pathTopics()
	for round := 1; len(out) < n; round++ {
		suffix := ""
		if round > 1 {
			suffix = "-" + strconv.Itoa(round)
		}
		for _, t := range topics {
			for _, sec := range sections {
				add("/" + sec + "/" + t + suffix)
			}
		}
	}
	return out
}
