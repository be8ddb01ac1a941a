package answers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// File holds the answers the files are written with, as Marshal writes
// them: bootstrap rewrites it with the rest, and the tests read the
// files' values from it (bootstrap's tests hold it to the files).
const File = "bootstrap/answers.yaml"

// Example are the answers of the example this repository ships with:
// the values its tests' fixtures are written in (Localize turns them into
// the files' own). They are Go, so bootstrap does not rewrite them.
var Example = Answers{
	GitHub: GitHubAnswers{Organization: "company", Apps: map[string]AppAnswers{
		"harness-platform-harness": {AppID: "1000003", InstallationID: "3000003"},
		"harness-platform-reader":  {AppID: "1000002"},
		"harness-platform-writer":  {AppID: "1000001"},
	}},
	Pulumi:  PulumiAnswers{Organization: "company"},
	AWS:     AWSAnswers{Accounts: map[string]string{"dev": "111111111111", "staging": "222222222222", "production": "333333333333"}, SecretsRegion: "eu-west-1"},
	Harness: HarnessAnswers{AccountID: "your-harness-account-id"},
	Domains: DomainAnswers{Services: "company.io", Mail: "company.com"},
	Runners: RunnerAnswers{EgressCidrs: []string{"198.51.100.0/28"}},
}

// Recorded reads File in the project directory root.
func Recorded(root string) (Answers, error) {
	var a Answers
	data, err := os.ReadFile(filepath.Join(root, File))
	if err != nil {
		return a, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		return a, errors.New(File + ": " + err.Error())
	}
	return a, nil
}
