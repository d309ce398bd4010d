echo "{}" > keep.json
ln -s keep.json g.json
