rm problem.json && mkfifo problem.json
