: > r.sqlite
