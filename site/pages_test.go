package main

// siteURL is the base URL of the built site served for the browser tests.
var siteURL string

// startSite builds the site into a temporary directory and serves it; the
// returned func stops the server and removes the directory.
// (Placeholder until the site command exists.)
func startSite() (stop func(), err error) {
	return func() {}, nil
}
