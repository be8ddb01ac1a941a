package preflight

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"
)

// GitHubFiles reads the files on branch of owner/repo whose path keep
// accepts, from the repository's archive: one API call (GET
// /repos/{owner}/{repo}/tarball/{branch}, which answers with a redirect
// to a short-lived codeload URL; docs.github.com/rest/repos/contents,
// "Download a repository archive (tar)"), then the download, which the
// API's rate limit does not count. Reading each manifest instead would be
// a call per file (GET .../contents/{path}): thousands at 1,000 services.
func (l Live) GitHubFiles(ctx context.Context, owner, repo, branch string, keep func(path string) bool) (map[string][]byte, error) {
	c, err := l.githubClient()
	if err != nil {
		return nil, err
	}
	link, _, err := c.Repositories.GetArchiveLink(ctx, owner, repo, github.Tarball, &github.RepositoryContentGetOptions{Ref: branch}, 0)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("downloading the archive of %s/%s at %s: %w", owner, repo, branch, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading the archive of %s/%s at %s: %s", owner, repo, branch, resp.Status)
	}
	return untar(resp.Body, keep)
}

// untar reads a repository's tar.gz archive (every path under one
// top-level directory, <owner>-<repo>-<sha>/), keeping the regular files
// whose path within the repository keep accepts.
func untar(r io.Reader, keep func(path string) bool) (map[string][]byte, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		_, path, ok := strings.Cut(h.Name, "/")
		if !ok || !keep(path) {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, 1<<24))
		if err != nil {
			return nil, err
		}
		out[path] = data
	}
}
