package platformctl

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every platformctl command the README and docs/ show, in their shell
// blocks and inline code, exists and parses with its own flags (those
// platformctl help COMMAND lists); one in a shell block, which a reader
// copies, also passes the command's checks (--stack, --yes: refresh
// without --preview-only writes the state, so it shows --yes).
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
		type snippet struct {
			line  string
			block bool
		}
		var snippets []snippet
		for _, m := range blocks.FindAllSubmatch(data, -1) {
			// A command continued over lines is one command.
			for _, line := range strings.Split(strings.ReplaceAll(string(m[1]), "\\\n", " "), "\n") {
				snippets = append(snippets, snippet{line, true})
			}
		}
		for _, m := range inline.FindAllSubmatch(blocks.ReplaceAll(data, nil), -1) {
			snippets = append(snippets, snippet{string(m[1]), false})
		}
		for _, sn := range snippets {
			for _, use := range platformctlUses(sn.line) {
				// A placeholder (COMMAND, ...) names no command;
				// alternatives (preview|up) name each.
				if use[0] == "..." || strings.ToUpper(use[0]) == use[0] {
					continue
				}
				for _, name := range strings.Split(use[0], "|") {
					checked++
					if err := checkUse(name, use[1:], sn.block); err != nil {
						t.Errorf("%s: `platformctl %s`: %v", filepath.Base(page), strings.Join(use, " "), err)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d platformctl commands found in the documentation", checked)
	}
}

// checkUse checks the documented arguments args of command name on the
// command tree run uses: each flag is one of the command's own. With
// full, a whole command line a reader copies, the arguments parse with
// the command's flags and pass the checks it makes before it loads
// anything (inline code may name a flag without its value).
func checkUse(name string, args []string, full bool) error {
	root := newRoot(io.Discard, io.Discard)
	cmd, _, err := root.Find([]string{name})
	if err != nil || cmd == root {
		return fmt.Errorf("no such command")
	}
	if err := singleDash(cmd, args); err != nil {
		return err
	}
	cmd.InitDefaultHelpFlag()
	flags := cmd.Flags()
	for _, arg := range args {
		if arg == "--" {
			break
		}
		arg = strings.Trim(arg, "[]") // an optional flag: [--diff]
		if long, ok := strings.CutPrefix(arg, "--"); ok {
			long, _, _ = strings.Cut(long, "=")
			if flags.Lookup(long) == nil {
				return fmt.Errorf("%s has no flag --%s (platformctl help %s)", name, long, name)
			}
		} else if short, ok := strings.CutPrefix(arg, "-"); ok && short != "" && flags.ShorthandLookup(short[:1]) == nil {
			return fmt.Errorf("%s has no flag -%s (platformctl help %s)", name, short[:1], name)
		}
	}
	if !full {
		return nil
	}
	if err := flags.Parse(args); err != nil {
		return fmt.Errorf("%v (platformctl help %s)", err, name)
	}
	if cmd.PreRunE != nil {
		if err := cmd.PreRunE(cmd, nil); err != nil {
			return fmt.Errorf("refused: %v", err)
		}
	}
	return nil
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

// The runbook's catalog commands (validate, render, stacks, delivery) run
// as a reader runs them, on the project, and succeed: they need no cloud,
// state or CLI. (Its engine commands are parsed above; the engine tests
// run what they do.)
func TestRunbookCatalogCommandsRun(t *testing.T) {
	data, err := os.ReadFile("../../docs/runbook.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```")
	ran := 0
	for _, m := range blocks.FindAllSubmatch(data, -1) {
		for _, line := range strings.Split(string(m[1]), "\n") {
			for _, use := range platformctlUses(line) {
				switch use[0] {
				case "validate", "render", "stacks", "delivery":
				default:
					continue
				}
				args := append([]string{use[0], "--dir", "../.."}, use[1:]...)
				if use[0] == "stacks" {
					// The change's base: here, the project itself.
					for i, a := range args {
						if a == "--base" && i+1 < len(args) {
							args[i+1] = "../.."
						}
					}
				}
				var out, errOut strings.Builder
				if code := Run(args, &out, &errOut); code != 0 {
					t.Errorf("platformctl %s: exit %d\n%s%s", strings.Join(use, " "), code, out.String(), errOut.String())
				}
				ran++
			}
		}
	}
	if ran < 5 {
		t.Fatalf("ran %d of the runbook's catalog commands", ran)
	}
}
