mkdir -p suite
cp -r "$ROOT/problems/saxpy" suite/saxpy
cp suite/saxpy/reference.cpp suite/saxpy/solution.cu  # plain C++: --cpu-candidate
echo '{"format": "regrapht-suite", "version": 1, "name": "tiny"}' > suite/suite.json
"$RG" bench --suite suite --method reference --cpu-candidate --no-timing --unsafe-no-sandbox --db r.sqlite -q
printf '// a fix\n' >> suite/saxpy/reference.cpp
