# The change-window policy Harness evaluates in the Policy step of every
# Production pipeline. The step runs after the approvals, which may wait a
# day, so the policy reads the time when it is evaluated (time.now_ns), not
# when the run started: Harness evaluates a Policy step's policy set when
# the pipeline reaches the step
# (developer.harness.io/docs/platform/governance/policy-as-code/sample-policy-use-case).
#
# Harness policies cannot read <+...> expressions, so the step resolves
# them into its JSON payload:
#   {"environment": "prod", "environmentType": "Production", "service": "...", "pipeline": "..."}
# The program appends the stack's window as a Rego value:
#   window = {"days": ["Mon", ...], "start": "10:00", "end": "16:00", "freeze": ["2026-12-24"]}
#
# Written in the Rego syntax Harness's policy samples use (deny[msg] {...},
# no rego.v1 keywords). A payload it cannot read is denied: the gate fails
# closed.
package change_window

deny[msg] {
	not well_formed
	msg := "the change-window payload needs environment, environmentType (Production or PreProduction), service and pipeline as strings; fix the pipeline's Policy step"
}

deny[msg] {
	well_formed
	input.environmentType == "Production"
	frozen
	msg := sprintf("%s may not be deployed to %s on %s: it is a freeze date", [input.service, input.environment, today])
}

deny[msg] {
	well_formed
	input.environmentType == "Production"
	not frozen
	not in_window
	msg := sprintf("%s may not be deployed to %s now (%s %s UTC): deployments are allowed on %v from %s to %s UTC", [input.service, input.environment, weekday, clock_text, window.days, window.start, window.end])
}

well_formed {
	is_string(input.environment)
	is_string(input.service)
	is_string(input.pipeline)
	environment_types[input.environmentType]
}

environment_types := {"Production", "PreProduction"}

now_ns := time.now_ns()

weekday := substring(time.weekday(now_ns), 0, 3)

today := sprintf("%04d-%02d-%02d", time.date(now_ns))

clock := time.clock(now_ns)

clock_text := sprintf("%02d:%02d", [clock[0], clock[1]])

frozen {
	window.freeze[_] == today
}

in_window {
	window.days[_] == weekday
	now := (clock[0] * 60) + clock[1]
	now >= minutes(window.start)
	now < minutes(window.end)
}

minutes(hhmm) := n {
	parts := split(hhmm, ":")
	n := (to_number(parts[0]) * 60) + to_number(parts[1])
}
