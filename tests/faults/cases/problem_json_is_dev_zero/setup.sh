rm problem.json && ln -s /dev/zero problem.json
