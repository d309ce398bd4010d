truncate -s 1229M g.json
