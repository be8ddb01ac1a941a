package components

import (
	"os"
	"reflect"
	"testing"

	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// A GitHub provider's token is never one of its inputs, whatever
// GITHUB_TOKEN the program's process has: the plugin reads it at
// Configure. Otherwise a preview's saved plan holds the reader's token
// and the up, with the writer's, violates it (++token). Every other
// input is the SDK constructor's.
func TestGitHubProviderTokenIsNotAnInput(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "ghs_reader")
	t.Setenv("GITHUB_BASE_URL", "") // restored after the test
	os.Unsetenv("GITHUB_BASE_URL")
	ours := run(t, "dev", func(ctx *pulumi.Context) error {
		_, err := newGitHubProvider(ctx, "github-acme", "acme", pulumi.Version(GitHubVersion))
		return err
	})
	sdks := run(t, "dev", func(ctx *pulumi.Context) error {
		_, err := github.NewProvider(ctx, "github-acme", &github.ProviderArgs{Owner: pulumi.String("acme")}, pulumi.Version(GitHubVersion))
		return err
	})
	got, want := ours.OfType("pulumi:providers:github"), sdks.OfType("pulumi:providers:github")
	if len(got) != 1 || len(want) != 1 {
		t.Fatalf("registered %d GitHub providers, the SDK %d", len(got), len(want))
	}
	if _, ok := got[0].Inputs["token"]; ok {
		t.Errorf("the provider's inputs hold GITHUB_TOKEN: %v", got[0].Inputs)
	}
	if _, ok := want[0].Inputs["token"]; !ok {
		t.Errorf("the SDK's constructor no longer copies GITHUB_TOKEN into the inputs (%v): newGitHubProvider may go back to it", want[0].Inputs)
	}
	delete(want[0].Inputs, "token")
	if !reflect.DeepEqual(got[0].Inputs, want[0].Inputs) {
		t.Errorf("inputs %v, the SDK's (without the token) %v", got[0].Inputs, want[0].Inputs)
	}
}
