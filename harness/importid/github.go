package importid

import (
	"fmt"
	"slices"
	"strings"
)

// GitHub objects a stack declares in its services' repositories. Of
// them, only an Actions environment variable refuses to be created when
// it exists: terraform-provider-github v6.12.1 (which pulumi-github
// v6.14.1 bridges) creates it with a POST, which GitHub answers with "409
// Already exists" (resource_github_actions_environment_variable.go; the
// upsert of integrations/terraform-provider-github#2758 came later).
// Environments, environment secrets and branch protections are written
// with a PUT, and the program's repository files overwrite on create, so
// a first up takes those over in place.

// GitHubVariable is the type of an Actions environment variable.
const GitHubVariable = "github:index/actionsEnvironmentVariable:ActionsEnvironmentVariable"

// GitHubVariables is the data source listing an environment's variables
// (data_source_github_actions_environment_variables.go: name is the
// repository's name), answering variables[].name, value.
const GitHubVariables = "github:index/getActionsEnvironmentVariables:getActionsEnvironmentVariables"

// githubSeparator and its escape in an ID part (util.go: idSeparator,
// idSeparatorEscaped).
const (
	githubSeparator = ":"
	githubEscaped   = "??"
)

// GitHubVariableID is an environment variable's ID, which is also its
// import ID: <repository>:<environment>:<variable name>, the environment
// with ':' escaped (buildID(repoName, escapeIDPart(envName), varName)).
func GitHubVariableID(repository, environment, name string) (string, error) {
	if repository == "" || environment == "" || name == "" {
		return "", fmt.Errorf("%s: the import ID needs repository, environment and variableName", GitHubVariable)
	}
	if strings.Contains(repository, githubSeparator) {
		return "", fmt.Errorf("%s: repository %q holds a ':'", GitHubVariable, repository)
	}
	return strings.Join([]string{repository, strings.ReplaceAll(environment, githubSeparator, githubEscaped), name}, githubSeparator), nil
}

// ParseGitHubVariableID is what an environment variable's ID names.
func ParseGitHubVariableID(id string) (repository, environment, name string, err error) {
	parts := strings.Split(id, githubSeparator)
	if len(parts) != 3 || slices.Contains(parts, "") {
		return "", "", "", fmt.Errorf("%s: import ID %q does not have the form <repository>:<environment>:<variable>", GitHubVariable, id)
	}
	return parts[0], strings.ReplaceAll(parts[1], githubEscaped, githubSeparator), parts[2], nil
}
