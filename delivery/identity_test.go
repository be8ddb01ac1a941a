package delivery

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/trust"
)

// Every kind of run gets the identity package trust gives it, and no
// other: the GitHub workflows ask Pulumi Cloud for their team's token
// (never an organisation token) and open their environments; the
// operator's Stacks and the Harness CI pipeline's stages read their
// team's stored token, each from its own secret.
func TestRunsHaveTheirIdentity(t *testing.T) {
	c := catalogtest.Example(t, "..")
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	ids := m.Identities(c.Chain, c.Root().Foundation.Repository)
	for _, name := range []string{"preview.yml", "up-stack.yml", "plan-stack.yml", "drift.yml"} {
		_, text := load(t, name)
		if strings.Contains(text, "access_token:organization") || strings.Contains(text, "access_token:personal") {
			t.Errorf("%s asks for an organisation or personal token", name)
		}
	}
	for _, id := range ids {
		switch {
		case strings.HasPrefix(id.Where, ".github/workflows/"):
			file := strings.TrimRight(strings.Fields(strings.TrimPrefix(id.Where, ".github/workflows/"))[0], ",")
			_, text := load(t, file)
			env := strings.TrimPrefix(id.Run, "up ")
			scope := "scope: team:" + id.Team
			if env != id.Run {
				scope = "scope: team:harness-platform-${{ inputs.stack }}" // the stack is the environment
				if w, _ := load(t, file); w.Jobs["up"].Environment != "${{ inputs.stack }}" {
					t.Errorf("%s: the up job runs in GitHub environment %v, and its token is given to environment %s's jobs only", file, w.Jobs["up"].Environment, env)
				}
			}
			if !strings.Contains(text, "requested-token-type: urn:pulumi:token-type:access_token:team\n          "+scope+"\n") {
				t.Errorf("%s (%s): does not ask for a token of team %s (%s)", file, id.Run, id.Team, scope)
			}
		case strings.HasPrefix(id.Where, "deploy/argocd/stacks/"):
			data, err := os.ReadFile(filepath.Join("..", id.Where, "stack.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Metadata struct{ Namespace string }
				Spec     struct {
					Environment []string `yaml:"environment"`
					EnvRefs     map[string]struct {
						Secret struct{ Name string } `yaml:"secret"`
					} `yaml:"envRefs"`
				} `yaml:"spec"`
			}
			if err := yaml.Unmarshal(data, &st); err != nil {
				t.Fatal(err)
			}
			if got := "Kubernetes Secret " + st.Metadata.Namespace + "/" + st.Spec.EnvRefs["PULUMI_ACCESS_TOKEN"].Secret.Name; got != id.Stored {
				t.Errorf("%s: its token is %s, want %s (team %s)", id.Where, got, id.Stored, id.Team)
			}
			if strings.Join(st.Spec.Environment, " ") != strings.Join(id.Opens, " ") {
				t.Errorf("%s: opens %v, want %v", id.Where, st.Spec.Environment, id.Opens)
			}
		case strings.HasPrefix(id.Where, ".harness/pipeline.yaml, stage "):
			stage := strings.TrimPrefix(id.Where, ".harness/pipeline.yaml, stage ")
			secret := plan.PreviewTokenSecret
			if env, ok := strings.CutPrefix(stage, "up_"); ok {
				secret = plan.DeployerTokenSecret(env)
			}
			if want := "Harness secret " + secret; want != id.Stored {
				t.Errorf("%s: its token is %s, want %s", id.Where, want, id.Stored)
			}
		default:
			t.Errorf("%s: where it runs (%s) is not checked", id.Run, id.Where)
		}
	}
	// Each CI stage names its own token and no other.
	pipeline, err := os.ReadFile("../.harness/pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Pipeline struct {
			Stages []struct {
				Stage struct {
					Identifier string
					Spec       struct {
						Execution struct {
							Steps []struct {
								Step struct {
									Spec struct {
										Image        string            `yaml:"image"`
										EnvVariables map[string]string `yaml:"envVariables"`
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if err := yaml.Unmarshal(pipeline, &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Pipeline.Stages {
		for _, step := range s.Stage.Spec.Execution.Steps {
			token, ok := step.Step.Spec.EnvVariables["PULUMI_ACCESS_TOKEN"]
			if !ok {
				continue
			}
			want := plan.PreviewTokenSecret
			if env, ok := strings.CutPrefix(s.Stage.Identifier, "up_"); ok {
				want = plan.DeployerTokenSecret(env)
			} else if step.Step.Spec.Image == "" {
				t.Errorf("stage %s runs a pull request's code on the runner host (no image)", s.Stage.Identifier)
			}
			if token != `<+secrets.getValue("`+want+`")>` {
				t.Errorf("stage %s logs in with %s, want secret %s", s.Stage.Identifier, token, want)
			}
		}
	}
}

// The GitHub token ESC mints is an installation token of one owner (its
// gh-login's owner), and the GitHub provider of every owner reads the
// same GITHUB_TOKEN: every owner the stacks write must be that owner, in
// the writer's and the reader's environments alike.
func TestGitHubLoginsCoverTheOwners(t *testing.T) {
	c := catalogtest.Example(t, "..")
	owners := map[string]bool{}
	for _, env := range c.Chain {
		r, err := preflight.Require(c, "", env, nil)
		if err != nil {
			t.Fatal(err)
		}
		for o := range r.GitHub {
			owners[o] = true
		}
	}
	for _, file := range []string{"harness-platform-ci.yaml", "harness-platform-ci-preview.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "esc", file))
		if err != nil {
			t.Fatal(err)
		}
		var env struct {
			Values struct {
				Github struct {
					Login struct {
						Owner string `yaml:"owner"`
					} `yaml:"fn::open::gh-login"`
				} `yaml:"github"`
			} `yaml:"values"`
		}
		if err := yaml.Unmarshal(data, &env); err != nil {
			t.Fatal(err)
		}
		login := env.Values.Github.Login.Owner
		for o := range owners {
			if o != login {
				t.Errorf("esc/%s mints a token for %q; the stacks also write on GitHub owner %q, which that token cannot reach", file, login, o)
			}
		}
	}
	if len(owners) == 0 {
		t.Fatal("the stacks write no GitHub owner")
	}
}
