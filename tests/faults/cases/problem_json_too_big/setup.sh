truncate -s 300M problem.json
