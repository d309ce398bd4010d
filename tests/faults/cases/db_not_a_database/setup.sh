head -c 20000 /dev/urandom > r.sqlite
