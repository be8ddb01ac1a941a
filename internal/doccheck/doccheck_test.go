package doccheck

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every Mermaid block parses with mermaid.parse (mermaid 11.12.1, the
// version docs/check/package.json pins), so it renders on GitHub and in
// mermaid.live rather than as "Parse error". A diagram that does not is
// named by file and line, with Mermaid's message.
func TestMermaidBlocksParse(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the docs check needs Node.js and npm (apt-get install nodejs npm)", tool)
		}
	}
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append(pages, "../../README.md")
	out, err := exec.Command("../../docs/check/run.sh", pages...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), " do not") || strings.HasPrefix(string(out), "0 Mermaid blocks") {
		t.Errorf("the check parsed no Mermaid block:\n%s", out)
	}
	t.Log(strings.TrimSpace(string(out)))
}
