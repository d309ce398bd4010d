rm reference.cpp && ln -s /etc/passwd reference.cpp
