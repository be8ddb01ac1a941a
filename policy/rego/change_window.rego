# The change-window policy Harness evaluates in the Policy step of every
# Production pipeline. Harness policies cannot read <+...> expressions, so
# the step resolves them into its JSON payload:
#   {"environment": "prod", "service": "...", "pipeline": "...", "startTs": "<epoch ms>"}
# The program appends the stack's window as a Rego value:
#   window := {"days": ["Mon", ...], "start": "10:00", "end": "16:00"}
package change_window

import rego.v1

deny contains msg if {
	not in_window
	msg := sprintf("%s may not be deployed to %s now: deployments are allowed on %v from %s to %s UTC", [input.service, input.environment, window.days, window.start, window.end])
}

in_window if {
	ns := to_number(input.startTs) * 1000000
	substring(time.weekday(ns), 0, 3) in window.days
	[hour, minute, _] := time.clock(ns)
	now := (hour * 60) + minute
	now >= minutes(window.start)
	now < minutes(window.end)
}

minutes(hhmm) := n if {
	parts := split(hhmm, ":")
	n := (to_number(parts[0]) * 60) + to_number(parts[1])
}
