truncate -s 1229M trajectory.json
