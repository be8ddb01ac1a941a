package harness

import (
	"errors"

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
