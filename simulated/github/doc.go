// Package github is the simulated GitHub: a stand-in for the GitHub
// Pulumi provider v6.14.1 (pulumi-github, bridging
// terraform-provider-github v6.12.1) and the GitHub REST API behind it,
// for one organisation (the provider's owner), for offline runs and
// tests only; and a loopback REST API (StartAPI) that a real GitHub
// plugin reads instead of api.github.com.
//
// It serves the types the program declares and refuses any other:
// github:index RepositoryEnvironment, BranchProtectionV3,
// ActionsOrganizationVariable, ActionsOrganizationSecret,
// ActionsRunnerGroup, RepositoryFile and TeamRepository; and the lookups getTeam,
// getRepository and getActionsOrganizationVariables. It does what the
// real provider and GitHub do to them that the program relies on:
//
//   - Check: the required inputs of the provider's Go SDK, an Actions
//     variable's or secret's name as the provider validates it, and the
//     Terraform schema's defaults, which the real Check fills; the
//     schema version the bridge records.
//   - Ids as the provider's (an organisation variable's or secret's
//     name); an existing variable refused with GitHub's 409; a branch
//     protection's required checks read back bound to the app that sets
//     them (context:app_id).
//   - Who may call (Refusal, CheckWrite, CheckRead, and preflight's
//     answers): 401 without a credential; a private repository's
//     environment protection rules only on Enterprise, its branch
//     protection only on a paid plan; a file commit only with Contents:
//     write on a branch that takes direct commits; organisation
//     variables and secrets only with the token's Variables and Secrets
//     permissions (core.GitHubAccount), and the provider's own refusals
//     of their visibility, in go-github's error format.
//   - Pacing: under the budgets the run sets (core.Meters), the
//     provider's transport sends one request at a time, pauses a second
//     after each write, and waits a spent limit out however long (Pause,
//     Backoff).
//
// It does NOT:
//
//   - store teams or repositories: every slug and repository exists,
//     with an id derived from its name (TeamID), private or not as the
//     Reach says;
//   - hold more than one organisation: organisation objects are keyed by
//     name alone;
//   - commit files, check that a branch exists, encrypt secrets (a
//     secret is stored as a digest; there is no public key), send
//     webhooks or run Actions;
//   - page: the organisation's variables are listed on one page;
//   - limit calls unless budgets are given (by default it only counts
//     them), or model eventual consistency;
//   - serve more REST API than the real plugin reads in a preview: the
//     loopback API answers GETs of an organisation, a team and a
//     repository, from names alone (not from the store); anything else
//     is 404, any write 405.
package github
