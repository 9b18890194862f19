package slackweb

import (
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// imageType returns the image content type of content, "" if it is not an
// image the page shows inline. The type is sniffed from the bytes, never
// taken from the name: an "x.png" holding HTML stays a download.
func imageType(content []byte) string {
	switch ct := http.DetectContentType(content); ct {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return ct
	}
	return ""
}

// allFiles are the files the page shows: those the bot uploaded, then
// those people attached to their messages.
func (h *Handler) allFiles() []slacktest.File {
	return append(h.srv.Files(), h.srv.AttachedFiles()...)
}

// filesByMessage lists the shared files person may see, by "channel/message
// ts": the bot's and those people attached. Their links name the person
// (ActingParam) unless they are the default, as an image's address cannot
// carry a header.
func (h *Handler) filesByMessage(person string) map[string][]FileView {
	out := map[string][]FileView{}
	visible := h.visibleChannels(person)
	as := ""
	if person != h.defaultPerson() {
		as = "?" + url.Values{ActingParam: {person}}.Encode()
	}
	for _, f := range h.allFiles() {
		if !shared(f, visible) {
			continue
		}
		key := f.Channel + "/" + f.MessageTS
		out[key] = append(out[key], FileView{
			ID: f.ID, Name: f.Name, Title: f.Title, Alt: f.AltText, Size: len(f.Content),
			Image: imageType(f.Content) != "", URL: "api/files/" + url.PathEscape(f.ID) + as,
		})
	}
	return out
}

// visibleChannels is the set of the ids of the channels person sees.
func (h *Handler) visibleChannels(person string) map[string]bool {
	out := map[string]bool{}
	for _, c := range h.srv.Channels() {
		if h.visible(c, person) {
			out[c.ID] = true
		}
	}
	return out
}

// shared reports whether f was shared in one of the visible channels.
func shared(f slacktest.File, visible map[string]bool) bool {
	return f.Completed && f.MessageTS != "" && visible[f.Channel]
}

// servable reports whether the page serves f: shared where the person
// sees it, or shared nowhere (a file the bot uploaded to show in an image
// block by its id, slack_file).
func servable(f slacktest.File, visible map[string]bool) bool {
	return f.Completed && (f.Channel == "" || shared(f, visible))
}

// serveFile answers GET /api/files/{id} with a file's content (see
// servable): an
// image inline, anything else as a download (Content-Disposition:
// attachment), so no uploaded file is ever shown as a page of this origin.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	visible := h.visibleChannels(me(r))
	for _, f := range h.allFiles() {
		if f.ID != id || !servable(f, visible) {
			continue
		}
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("Content-Length", strconv.Itoa(len(f.Content)))
		if ct := imageType(f.Content); ct != "" {
			hd.Set("Content-Type", ct)
		} else {
			ct := "application/octet-stream"
			if strings.EqualFold(path.Ext(f.Name), ".csv") {
				ct = "text/csv; charset=utf-8"
			}
			hd.Set("Content-Type", ct)
			disposition := mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(f.Name)})
			if disposition == "" {
				disposition = "attachment"
			}
			hd.Set("Content-Disposition", disposition)
		}
		_, _ = w.Write(f.Content)
		return
	}
	http.Error(w, "no such file", http.StatusNotFound)
}
