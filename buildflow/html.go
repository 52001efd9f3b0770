package buildflow

import (
	"fmt"
	"html"
	"regexp"
	"strings"
)

var (
	mdImage  = regexp.MustCompile(`^!\[([^\]]*)\]\(([^)]+)\)$`)
	mdCode   = regexp.MustCompile("`([^`]+)`")
	mdStrong = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline renders the inline Markdown of the report: `code` and **bold**.
func inline(s string) string {
	s = html.EscapeString(s)
	s = mdCode.ReplaceAllString(s, "<code>$1</code>")
	return mdStrong.ReplaceAllString(s, "<strong>$1</strong>")
}

// HTML renders the report's Markdown (the subset Report writes: headings,
// paragraphs, lists, tables, fenced code, images, and the <details> and
// <summary> lines that fold the long tables) as a standalone page. Images
// and code scale or scroll within the page's width.
//
// images maps an image's file name to its SVG: such images are written into
// the page itself (no <img> to a file beside it), so that the page is
// self-contained and can be mailed.
func HTML(md string, images map[string][]byte) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hdlgen build report</title>\n" +
		"<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}" +
		"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}td.r{text-align:right}" +
		"pre{background:#f4f4f4;padding:8px;overflow-x:auto;max-width:100%}img,svg{max-width:100%;height:auto}figure{margin:1em 0}" +
		"details{margin:1em 0}</style></head><body>\n")
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == "":
		case strings.HasPrefix(l, "<details>") || l == "</details>":
			b.WriteString(l + "\n")
		case strings.HasPrefix(l, "```"):
			b.WriteString("<pre>")
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				b.WriteString(html.EscapeString(lines[i]) + "\n")
			}
			b.WriteString("</pre>\n")
		case strings.HasPrefix(l, "## "):
			fmt.Fprintf(&b, "<h2>%s</h2>\n", inline(l[3:]))
		case strings.HasPrefix(l, "# "):
			fmt.Fprintf(&b, "<h1>%s</h1>\n", inline(l[2:]))
		case mdImage.MatchString(l):
			m := mdImage.FindStringSubmatch(l)
			if svg, ok := images[m[2]]; ok {
				fmt.Fprintf(&b, "<figure role=\"img\" aria-label=\"%s\">\n%s</figure>\n", html.EscapeString(m[1]), svg)
				break
			}
			fmt.Fprintf(&b, "<p><img src=\"%s\" alt=\"%s\"></p>\n", html.EscapeString(m[2]), html.EscapeString(m[1]))
		case strings.HasPrefix(l, "| "):
			b.WriteString("<table>\n")
			var align []bool // right-aligned columns
			for row := 0; i < len(lines) && strings.HasPrefix(lines[i], "| "); i, row = i+1, row+1 {
				line := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[i]), "|"), "|")
				cells := strings.Split(line, "|")
				for c := range cells {
					cells[c] = strings.TrimSpace(cells[c])
				}
				if row == 1 {
					for _, c := range cells {
						align = append(align, strings.HasSuffix(c, ":"))
					}
					continue
				}
				b.WriteString("<tr>")
				for j, c := range cells {
					tag, class := "td", ""
					if row == 0 {
						tag = "th"
					} else if j < len(align) && align[j] {
						class = ` class="r"`
					}
					fmt.Fprintf(&b, "<%s%s>%s</%s>", tag, class, inline(c), tag)
				}
				b.WriteString("</tr>\n")
			}
			i--
			b.WriteString("</table>\n")
		case strings.HasPrefix(l, "- "):
			b.WriteString("<ul>\n")
			for ; i < len(lines) && strings.HasPrefix(lines[i], "- "); i++ {
				fmt.Fprintf(&b, "<li>%s</li>\n", inline(lines[i][2:]))
			}
			i--
			b.WriteString("</ul>\n")
		default:
			fmt.Fprintf(&b, "<p>%s</p>\n", inline(l))
		}
	}
	b.WriteString("</body></html>\n")
	return b.String()
}
