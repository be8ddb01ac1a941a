package harness

import (
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/core"
)

// Account is the identifier of the simulated Harness account.
const Account = "SIMULATED"

// Refusal is Harness's answer to every call with the run's API key: 401
// when the Reach says Harness refuses it.
func (Behavior) Refusal(r core.Reach) error {
	if r.InvalidHarnessKey {
		return unauthorized()
	}
	return nil
}

func unauthorized() error {
	return errors.New(`401 Unauthorized: {"status":"ERROR","code":"INVALID_TOKEN","message":"Token is not valid."}`)
}

// CheckKey is Harness's answer to preflight's check of the API key for
// account: the simulated account, with a key Harness accepts.
func CheckKey(r core.Reach, account string) error {
	if account != Account {
		return unauthorized()
	}
	return Behavior{}.Refusal(r)
}

// gitEntities are the types Git Experience stores inline or in Git.
var gitEntities = map[string]bool{
	"harness:platform/pipeline:Pipeline": true,
	TemplateType:                         true,
	"harness:platform/inputSet:InputSet": true,
}

// CheckWrite refuses, in an account that enforces Git Experience, every
// create and update of an inline pipeline, template or input set, with
// Harness's message (harness-core GitXSettingsHelper
// .enforceGitExperienceIfApplicable): inline is the store type given, or
// none.
func (Behavior) CheckWrite(typ, _ string, _, news resource.PropertyMap, r core.Reach) error {
	if !r.HarnessGitExperienceEnforced || !gitEntities[typ] {
		return nil
	}
	store := ""
	if gd, ok := news["gitDetails"]; ok && gd.IsObject() {
		store = core.Str(gd.ObjectValue(), "storeType")
	}
	if store == "REMOTE" {
		return nil
	}
	return fmt.Errorf(`400 Bad Request: {"status":"ERROR","code":"INVALID_REQUEST","message":"Git Experience is enforced for the current scope with accountId: [%s], orgIdentifier: [%s] and projIdentifier: [%s]. Hence Interaction with INLINE entities is forbidden."}`,
		Account, core.Str(news, "orgId"), core.Str(news, "projectId"))
}

// GitExperience is Harness's answer to preflight's read of the project's
// Git Experience settings.
func GitExperience(r core.Reach) preflight.GitExperience {
	return preflight.GitExperience{Enforced: r.HarnessGitExperienceEnforced, DefaultStore: "INLINE"}
}
