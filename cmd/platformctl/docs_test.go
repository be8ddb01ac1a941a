package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every platformctl command the README and docs/ show, in their shell
// blocks and inline code, exists, with only the flags its own help
// (platformctl help COMMAND) lists.
func TestDocumentedCommandsExist(t *testing.T) {
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append(pages, "../../README.md")
	blocks := regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
	inline := regexp.MustCompile("`([^`\n]*platformctl [^`\n]*)`")
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		var snippets []string
		for _, m := range blocks.FindAllSubmatch(data, -1) {
			// A command continued over lines is one command.
			snippets = append(snippets, strings.Split(strings.ReplaceAll(string(m[1]), "\\\n", " "), "\n")...)
		}
		for _, m := range inline.FindAllSubmatch(blocks.ReplaceAll(data, nil), -1) {
			snippets = append(snippets, string(m[1]))
		}
		for _, line := range snippets {
			for _, use := range platformctlUses(line) {
				// A placeholder (COMMAND, ...) names no command;
				// alternatives (preview|up) name each.
				if use[0] == "..." || strings.ToUpper(use[0]) == use[0] {
					continue
				}
				for _, name := range strings.Split(use[0], "|") {
					checked++
					cmd, ok := lookup(name)
					if !ok {
						t.Errorf("%s: `platformctl %s`: no such command", filepath.Base(page), strings.Join(use, " "))
						continue
					}
					checkFlags(t, page, name, cmd, use)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d platformctl commands found in the documentation", checked)
	}
}

// checkFlags checks each --flag of use against the help of command name.
func checkFlags(t *testing.T, page, name string, cmd command, use []string) {
	t.Helper()
	var help bytes.Buffer
	commandUsage(cmd, &help)
	for _, arg := range use[1:] {
		flagName, ok := strings.CutPrefix(arg, "--")
		if !ok {
			continue
		}
		flagName, _, _ = strings.Cut(flagName, "=")
		if !strings.Contains(help.String(), "  -"+flagName+" ") && !strings.Contains(help.String(), "  -"+flagName+"\n") {
			t.Errorf("%s: `platformctl %s`: %s has no flag --%s (platformctl help %s)", filepath.Base(page), strings.Join(use, " "), name, flagName, name)
		}
	}
}

// platformctlUses are the platformctl invocations in a line of shell: the
// command and its arguments, up to the end of the shell command.
func platformctlUses(line string) [][]string {
	var out [][]string
	for {
		i := strings.Index(line, "platformctl ")
		if i < 0 {
			return out
		}
		line = line[i+len("platformctl "):]
		var use []string
		for _, f := range strings.Fields(line) {
			// The end of the command: a pipe, a list, a comment, a
			// redirection (a <placeholder> is an argument).
			if strings.ContainsAny(f[:1], "|;&)#>") || f == "<" || strings.HasPrefix(f, "2>") {
				break
			}
			use = append(use, strings.Trim(f, `"')`))
			if strings.ContainsAny(f, ";)") {
				break
			}
		}
		if len(use) > 0 && !strings.HasPrefix(use[0], "-") && use[0] != "" {
			out = append(out, use)
		}
	}
}
