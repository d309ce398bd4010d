#include <cstddef>
#include <string>
#include <vector>

struct Book {
   std::string title;
   int pages;
};

// Index of the last book with fewer than 100 pages, scanning from the back;
// books.size() when no book is that short.
size_t findLastShortBook(std::vector<Book> const& books) {
  for (size_t i = books.size(); i > 0; --i) {
    if (books[i - 1].pages < 100) return i - 1;
  }
  return books.size();
}
