package github

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
)

// API answers, on a loopback port, the reads of GitHub's REST API
// that the real GitHub provider makes in a preview, from the simulated
// GitHub: the owner (Configure asks whether it is an organisation), a
// team by slug (the getTeam lookup) and a repository (state upgrades that
// record its id). Ids are the simulation's (TeamID). Anything else is 404,
// as GitHub answers what does not exist. It lets `platformctl
// check-plugins` run the real plugin offline with its base URL pointed
// here, never at api.github.com.
type API struct {
	srv *http.Server
	url string
}

// StartAPI serves the API on 127.0.0.1. Close it.
func StartAPI() (*API, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	a := &API{srv: &http.Server{Handler: http.HandlerFunc(serveGitHub)}, url: "http://" + lis.Addr().String() + "/"}
	go func() { _ = a.srv.Serve(lis) }()
	return a, nil
}

// URL is the provider's base URL (a GitHub Enterprise Server form: the
// provider adds api/v3/).
func (a *API) URL() string { return a.url }

// Close stops serving.
func (a *API) Close() { _ = a.srv.Close() }

func serveGitHub(w http.ResponseWriter, r *http.Request) {
	path := strings.Trim(strings.TrimPrefix(r.URL.Path, "/api/v3"), "/")
	parts := strings.Split(path, "/")
	var body any
	switch {
	case r.Method != http.MethodGet:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	case len(parts) == 2 && parts[0] == "orgs":
		body = map[string]any{"login": parts[1], "id": TeamID(parts[1]), "type": "Organization"}
	case len(parts) == 4 && parts[0] == "orgs" && parts[2] == "teams":
		body = map[string]any{"id": TeamID(parts[3]), "node_id": "T_" + parts[3], "slug": parts[3], "name": parts[3],
			"privacy": "closed", "notification_setting": "notifications_enabled", "permission": "pull"}
	case len(parts) == 3 && parts[0] == "repos":
		body = map[string]any{"id": TeamID(parts[2]), "node_id": "R_" + parts[2], "name": parts[2],
			"full_name": parts[1] + "/" + parts[2], "private": true, "default_branch": "main",
			"owner": map[string]any{"login": parts[1], "type": "Organization"}}
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}
