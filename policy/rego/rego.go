// Package rego holds the Rego policies Harness evaluates, as files, and
// renders them with their stack settings.
package rego

import (
	_ "embed"
	"encoding/json"

	"github.com/company/harness-platform/catalog"
)

//go:embed change_window.rego
var changeWindow string

// ChangeWindow returns the change-window policy for w: the policy file with
// the window appended as a Rego value (JSON is valid Rego).
func ChangeWindow(w *catalog.ChangeWindow) string {
	freeze := w.Freeze
	if freeze == nil {
		freeze = []string{}
	}
	window, err := json.Marshal(struct {
		Days   []string `json:"days"`
		Start  string   `json:"start"`
		End    string   `json:"end"`
		Freeze []string `json:"freeze"`
	}{w.Days, w.Start, w.End, freeze})
	if err != nil {
		panic(err) // strings always marshal
	}
	return changeWindow + "\nwindow := " + string(window) + "\n"
}
