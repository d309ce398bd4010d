rm trajectory.json && mkfifo trajectory.json
