package harness

import (
	"fmt"
	"time"

	"github.com/company/harness-platform/apibudget"
)

// Retries is how often the Harness provider's client retries a
// 429 before it fails the step: go-retryablehttp with RetryMax 10, its
// default backoff (1 s doubling to 30 s, or the Retry-After Harness
// sends, which its Cloud Armor front does not).
const Retries = 10

// methods are the HTTP methods of the steps, for messages.
var methods = map[apibudget.Op]string{apibudget.Create: "POST", apibudget.Update: "PUT", apibudget.Replace: "POST",
	apibudget.Delete: "DELETE", apibudget.Read: "GET"}

// Backoff is how the Harness provider meets a spent budget: it backs off
// and retries (Retries), then fails the step with the client's
// "giving up" and Harness's 429.
func (Behavior) Backoff(typ string, op apibudget.Op, attempt int, over apibudget.Budget, _ time.Duration) (time.Duration, error) {
	if attempt == Retries {
		return 0, fmt.Errorf("%s %s: giving up after %d attempt(s): 429 Too Many Requests (%s: %d requests per %s; %s)",
			methods[op], typ, attempt+1, over.Name, over.Limit, over.Window, over.Source)
	}
	return min(time.Second<<attempt, 30*time.Second), nil
}
